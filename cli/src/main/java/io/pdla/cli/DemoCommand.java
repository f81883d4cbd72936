package io.pdla.cli;

import io.pdla.bench.ior.IorLauncher;
import io.pdla.cli.demo.PdlaLoopDemo;
import io.pdla.hdfs.MiniCluster;
import io.pdla.mpiio.launch.MpjJob;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code pdla demo}: the main job on embedded defaults (sim-pfs, 8 HDD + 4 SSD servers). First a 4-rank MPJ
 * job writes and reads back a strided shared file through the shim (IOR's interleaved segments, 16 KiB
 * transfers), verifies every byte and prints IOR-like results (on POSIX next to a bare FileChannel loop).
 * Then the PDLA loop on the same shape: run 1 traced, analyze, the replicator daemon once, run 2 redirected,
 * both runs verified, with the count of run 2's reads that replicas served. With
 * {@code --pfs hdfs} the same runs against an in-process MiniDFSCluster, one file per rank (HDFS files are
 * append-only, so the N-1 strided shape would be refused with ERR_UNSUPPORTED_OPERATION).
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run the end-to-end demo: a 4-rank strided shared-file job through pdla's MPI-IO, verified.")
public final class DemoCommand implements Callable<Integer> {
    @Option(names = "-np", defaultValue = "4", description = "Number of ranks (default: ${DEFAULT-VALUE}).")
    int processes;

    @Option(names = "--dir", description = "Directory for the demo's files (default: a new temporary directory, removed afterwards).")
    Path dir;

    @Option(names = "--segments", defaultValue = "256", description = "IOR segments per rank (default: ${DEFAULT-VALUE}).")
    int segments;

    /** Where the demo's file lives. */
    enum Pfs { simpfs, posix, hdfs }

    @Option(names = "--pfs", defaultValue = "simpfs", description = "Storage: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}, 8 HDD + 4 SSD servers, 64 KiB stripes). "
            + "hdfs starts an in-process MiniDFSCluster (2 DISK + 2 SSD DataNodes) and writes one file per rank, since HDFS files are append-only.")
    Pfs pfs;

    @Option(names = "--no-loop", description = "Skip the PDLA loop (trace, analyze, replicate, redirect); run only the IOR part.")
    boolean noLoop;

    @Option(names = "--log", description = "Where the details go (every step's own output); default: pdla-demo.log in the temporary directory.")
    Path log;

    @Option(names = "--report", description = "Where the HTML report of the loop's traced run 1 goes (pdla report, with the replica catalog); "
            + "default: pdla-demo-report.html in the temporary directory.")
    Path report;

    /** The terminal: the summary goes here, the details to the log, so the whole output fits one screen. */
    private PrintStream screen;

    /** The loop's traced run 1 and the catalog its replicas went into, for the report at the end. */
    private Path traces, catalog;

    @Override
    public Integer call() throws Exception {
        if (processes <= 0) {
            System.err.println("pdla demo: -np must be > 0, was " + processes);
            return 2;
        }
        boolean temporary = dir == null;
        Path work = temporary ? Files.createTempDirectory("pdla-demo") : Files.createDirectories(dir);
        Path logFile = log != null ? log : Path.of(System.getProperty("java.io.tmpdir"), "pdla-demo.log");
        screen = System.out;
        try (PrintStream details = new PrintStream(Files.newOutputStream(logFile), true, java.nio.charset.StandardCharsets.UTF_8)) {
            System.setOut(details);
            screen.println("pdla demo: details of every step in " + logFile);
            return demo(work);
        } finally {
            System.setOut(screen);
            if (temporary) {
                deleteTree(work);
                if (pfs == Pfs.simpfs) deleteFiles(java.net.URI.create(SIMPFS_DIR + "/" + work.getFileName()));
            }
        }
    }

    private Integer demo(Path work) throws Exception {
        MiniCluster cluster = null;
        try {
            List<String> ior;
            if (pfs == Pfs.hdfs) {
                screen.println("pdla demo: starting an in-process HDFS MiniDFSCluster (2 DISK + 2 SSD DataNodes)");
                cluster = MiniCluster.builder().baseDir(work.resolve("hdfs")).start();
                cluster.fileSystem().mkdirs(new org.apache.hadoop.fs.Path("/demo"));
                String target = cluster.uri("/demo/strided.dat").toString();
                // One file per rank, written front to back: the append-only shape HDFS accepts.
                ior = List.of("-a", "MPIIO", "-F", "-b", (16L * segments) + "k", "-t", "16k", "-s", "1",
                        "-w", "-r", "-R", "-C", "-i", "1", "--no-baseline", "-o", target);
                screen.println("pdla demo: " + processes + " MPJ ranks (multicore device) write and read back one file each on " + cluster.uri());
            } else if (pfs == Pfs.simpfs) {
                ior = List.of("-a", "MPIIO", "-b", "16k", "-t", "16k", "-s", Integer.toString(segments),
                        "-w", "-r", "-R", "-C", "-i", "2", "--no-baseline", "-o", simpfsFile(work, "ior.dat"));
                screen.println("pdla demo: " + processes + " MPJ ranks (multicore device) write and read back a strided shared file on sim-pfs");
            } else {
                Path file = work.resolve("strided.dat");
                ior = List.of("-a", "MPIIO", "-b", "16k", "-t", "16k", "-s", Integer.toString(segments),
                        "-w", "-r", "-R", "-C", "-i", "2", "-o", file.toString());
                screen.println("pdla demo: " + processes + " MPJ ranks (multicore device) write and read back a strided shared file");
            }
            System.out.println("pdla demo: IOR " + String.join(" ", ior));
            System.out.flush();
            MpjJob.Result r = IorLauncher.run(processes, "multicore", ior, false);
            System.out.print(r.output());
            if (!r.succeeded()) {
                screen.println("pdla demo: the job failed (exit " + r.exitCode() + (r.timedOut() ? ", timed out" : "") + "); its output is in the log");
                return 1;
            }
            for (String line : r.output().split("\\R")) if (line.startsWith("Max Write:") || line.startsWith("Max Read:") || line.startsWith("verify:")) screen.println("  " + line);
            screen.println("pdla demo: every byte read back was verified (-R)");
            if (!noLoop) loop(work, cluster);
            screen.println(noLoop ? "pdla demo: done" : "pdla demo: done; " + writeReport());
            return 0;
        } finally {
            if (cluster != null) cluster.close();
        }
    }

    /** Where every demo keeps its directory on sim-pfs. */
    static final String SIMPFS_DIR = "simpfs:///pdla-demo";

    /** A file in this demo's own directory of sim-pfs (the default root, shared by the ranks' JVM). */
    private static String simpfsFile(Path work, String name) {
        return SIMPFS_DIR + "/" + work.getFileName() + "/" + name;
    }

    private void loop(Path work, MiniCluster cluster) throws Exception {
        String file = switch (pfs) {
            case simpfs -> simpfsFile(work, "strided.dat");
            case hdfs -> cluster.uri("/demo/loop.dat").toString();
            case posix -> work.resolve("loop.dat").toString();
        };
        screen.println("pdla demo: the PDLA loop on " + pfs + ": run 1 traced -> analyze -> replicate -> run 2 redirected");
        System.out.println();
        System.out.println("pdla demo: the PDLA loop on " + pfs + ": trace -> analyze -> replicate -> redirect");
        PdlaLoopDemo.Result r = new PdlaLoopDemo(processes, file, 16 * 1024, segments, Files.createDirectories(work.resolve("loop")),
                java.util.Map.of(), pfs == Pfs.simpfs ? 4 : 0, System.out).run();
        java.util.List<String[]> rows = new java.util.ArrayList<>();
        rows.add(row(pfs + " run 1: original, traced", r.run1()));
        rows.add(row(pfs + " run 2: redirected", r.run2()));
        if (pfs == Pfs.simpfs) posixLoops(work, rows);
        screen.println();
        screen.printf(java.util.Locale.ROOT, "%-42s %11s %24s%n", "run (" + processes + " ranks, 16 KiB fixed-stride reads)", "read MiB/s", "reads served by replica");
        for (String[] row : rows) screen.printf(java.util.Locale.ROOT, "%-42s %11s %24s%n", (Object[]) row);
        screen.println("(wall-clock on this machine; every run verified every byte)");
        if (pfs == Pfs.simpfs) {
            screen.println("why the POSIX rows differ: through the page cache a read is a memory copy wherever it comes from, so a replica");
            screen.println("  saves nothing and redirect adds its cost; without it (O_DIRECT) the replica makes the strided reads sequential");
        }
        schemeTable(r.traces());
        traces = r.traces();
        catalog = r.traces().resolveSibling("catalog");
        if (r.run2().servedByReplica() == 0) {
            screen.println("pdla demo: run 2 was not served by any replica");
            throw new IllegalStateException("run 2 was not served by any replica");
        }
    }

    /**
     * The loop on the POSIX driver twice: without the page cache (O_DIRECT, as {@code pdla bench direct}), where a
     * replica turns strided reads into sequential ones, and through the page cache, where it cannot gain.
     */
    private void posixLoops(Path work, java.util.List<String[]> rows) throws Exception {
        String why = DirectBenchCommand.directIoUnsupported(work);
        if (why == null) {
            screen.println("pdla demo: the same loop on the POSIX driver with O_DIRECT (no page cache), run 2 with 4 MiB read-ahead");
            System.out.println();
            System.out.println("pdla demo: the same loop on the POSIX driver, O_DIRECT");
            PdlaLoopDemo direct = new PdlaLoopDemo(processes, work.resolve("direct-loop.dat").toString(), 16 * 1024, segments,
                    Files.createDirectories(work.resolve("direct-loop")), java.util.Map.of(), 0, System.out, java.util.List.of("direct"));
            PdlaLoopDemo.Result d = direct.run();
            PdlaLoopDemo.RunFigures ahead = direct.redirectedRead(java.util.Map.of("PDLA_READAHEAD_BYTES", Long.toString(4L << 20)));
            rows.add(row("posix O_DIRECT run 1: original, traced", d.run1()));
            rows.add(row("posix O_DIRECT run 2: redirected", ahead));
        } else {
            rows.add(new String[]{"posix O_DIRECT: not supported in " + work.getFileName(), "-", why});
        }
        screen.println("pdla demo: the same loop on the POSIX driver through the page cache");
        System.out.println();
        System.out.println("pdla demo: the same loop on the POSIX driver, page cache");
        PdlaLoopDemo.Result cached = new PdlaLoopDemo(processes, work.resolve("posix-loop.dat").toString(), 16 * 1024, segments,
                Files.createDirectories(work.resolve("posix-loop")), java.util.Map.of(), 0, System.out).run();
        rows.add(row("posix page cache run 1: original, traced", cached.run1()));
        rows.add(row("posix page cache run 2: redirected", cached.run2()));
    }

    /**
     * The demo's last step: {@code pdla report} of run 1's traces with the replica catalog, written outside the
     * demo's directory (which is removed). A report that cannot be written is said, not a failed demo: the runs
     * were verified already.
     */
    private String writeReport() {
        Path out = report != null ? report : Path.of(System.getProperty("java.io.tmpdir"), "pdla-demo-report.html");
        System.out.println();
        System.out.println("pdla demo: pdla report " + traces + " --catalog " + catalog + " -o " + out);
        int code = PdlaCommand.commandLine().execute("report", traces.toString(), "--catalog", catalog.toString(), "-o", out.toString());
        return code == 0 ? "report of run 1 (open it in a browser): " + out.toAbsolutePath()
                : "the report of run 1 could not be written (exit " + code + ", the reason above)";
    }

    private static String[] row(String name, PdlaLoopDemo.RunFigures f) {
        long total = f.servedByReplica() + f.servedByOriginal();
        return new String[]{name, String.format(java.util.Locale.ROOT, "%.2f", f.mibPerSecond()), f.servedByReplica() + " / " + total};
    }

    /**
     * The traced run 1 replayed on sim-pfs's timing model (8 HServers, 4 SServers, 64 KiB stripes) under each
     * replication scheme: virtual-time bandwidth of the read phase and of the same requests as writes.
     */
    private void schemeTable(Path traces) throws IOException {
        io.pdla.patterns.TraceSource read = new TracerTraceSources().open(traces);
        io.pdla.patterns.TraceSource write = new io.pdla.patterns.TraceSource() {
            @Override
            public io.pdla.patterns.TracedJob job() {
                return read.job();
            }

            @Override
            public java.util.SortedSet<Integer> ranks() {
                return read.ranks();
            }

            @Override
            public java.util.Iterator<io.pdla.access.TraceRecord> records(int rank) {
                return io.pdla.bench.schemes.SchemeComparison.withOp(read.records(rank), io.pdla.access.IoOp.WRITE);
            }
        };
        io.pdla.bench.schemes.SchemeComparison.Table t = new io.pdla.bench.schemes.SchemeComparison(
                io.pdla.bench.schemes.SchemeComparison.Settings.defaults())
                .compare(new io.pdla.bench.schemes.SchemeComparison.WorkloadSpec("run 1 of the demo", read, write));
        screen.println();
        screen.println("run 1's requests on sim-pfs (virtual time; 8 HServers + 4 SServers, 64 KiB stripes), by replication scheme:");
        screen.printf(java.util.Locale.ROOT, "%-9s %12s %12s  %s%n", "scheme", "read MiB/s", "write MiB/s", "replica placement (read)");
        for (io.pdla.bench.schemes.SchemeComparison.Row row : t.rows()) {
            screen.printf(java.util.Locale.ROOT, "%-9s %12.1f %12.1f  %s%n", row.name(), row.readMiBps(), row.writeMiBps(), row.readPlacement());
        }
    }


    /**
     * The files of the demo's directory on sim-pfs, their data objects with them: they live in sim-pfs's root, outside
     * the demo's own directory (every run left its 49 MiB there). The store keeps its empty directories.
     */
    private void deleteFiles(java.net.URI dir) {
        try {
            deleteFiles(io.pdla.storage.StorageDrivers.installed().forUri(dir), dir);
        } catch (IOException | RuntimeException e) {
            screen.println("pdla demo: could not remove the demo's files in " + dir + ": " + e.getMessage());
        }
    }

    static void deleteFiles(io.pdla.storage.StorageDriver d, java.net.URI dir) throws IOException {
        List<io.pdla.storage.StorageStatus> entries;
        try {
            entries = d.list(dir);
        } catch (io.pdla.storage.StorageException e) {
            if (e.reason() == io.pdla.storage.StorageException.Reason.NO_SUCH_FILE) return;   // the demo wrote nothing there
            throw e;
        }
        for (io.pdla.storage.StorageStatus e : entries) {
            if (e.directory()) deleteFiles(d, e.uri());
            else d.delete(e.uri());
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
