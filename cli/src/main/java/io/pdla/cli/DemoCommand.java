package io.pdla.cli;

import io.pdla.bench.ior.IorLauncher;
import io.pdla.cli.demo.PdlaLoopDemo;
import io.pdla.hdfs.MiniCluster;
import io.pdla.mpiio.launch.MpjJob;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
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

    @Override
    public Integer call() throws Exception {
        if (processes <= 0) {
            System.err.println("pdla demo: -np must be > 0, was " + processes);
            return 2;
        }
        boolean temporary = dir == null;
        Path work = temporary ? Files.createTempDirectory("pdla-demo") : Files.createDirectories(dir);
        MiniCluster cluster = null;
        try {
            List<String> ior;
            if (pfs == Pfs.hdfs) {
                System.out.println("pdla demo: starting an in-process HDFS MiniDFSCluster (2 DISK + 2 SSD DataNodes)");
                cluster = MiniCluster.builder().baseDir(work.resolve("hdfs")).start();
                cluster.fileSystem().mkdirs(new org.apache.hadoop.fs.Path("/demo"));
                String target = cluster.uri("/demo/strided.dat").toString();
                // One file per rank, written front to back: the append-only shape HDFS accepts.
                ior = List.of("-a", "MPIIO", "-F", "-b", (16L * segments) + "k", "-t", "16k", "-s", "1",
                        "-w", "-r", "-R", "-C", "-i", "1", "--no-baseline", "-o", target);
                System.out.println("pdla demo: " + processes + " MPJ ranks (multicore device) write and read back one file each on " + cluster.uri());
            } else if (pfs == Pfs.simpfs) {
                ior = List.of("-a", "MPIIO", "-b", "16k", "-t", "16k", "-s", Integer.toString(segments),
                        "-w", "-r", "-R", "-C", "-i", "2", "--no-baseline", "-o", simpfsFile(work, "ior.dat"));
                System.out.println("pdla demo: " + processes + " MPJ ranks (multicore device) write and read back a strided shared file on sim-pfs");
            } else {
                Path file = work.resolve("strided.dat");
                ior = List.of("-a", "MPIIO", "-b", "16k", "-t", "16k", "-s", Integer.toString(segments),
                        "-w", "-r", "-R", "-C", "-i", "2", "-o", file.toString());
                System.out.println("pdla demo: " + processes + " MPJ ranks (multicore device) write and read back a strided shared file");
            }
            System.out.println("pdla demo: IOR " + String.join(" ", ior));
            System.out.flush();
            MpjJob.Result r = IorLauncher.run(processes, "multicore", ior, false);
            System.out.print(r.output());
            if (!r.succeeded()) {
                System.err.println("pdla demo: the job failed (exit " + r.exitCode() + (r.timedOut() ? ", timed out" : "") + ")");
                return 1;
            }
            System.out.println("pdla demo: every byte read back was verified (-R)");
            if (!noLoop) loop(work, cluster);
            System.out.println("pdla demo: done");
            return 0;
        } finally {
            if (cluster != null) cluster.close();
            if (temporary) deleteTree(work);
        }
    }

    /** A file in this demo's own directory of sim-pfs (the default root, shared by the ranks' JVM). */
    private static String simpfsFile(Path work, String name) {
        return "simpfs:///pdla-demo/" + work.getFileName() + "/" + name;
    }

    private void loop(Path work, MiniCluster cluster) throws Exception {
        String file = switch (pfs) {
            case simpfs -> simpfsFile(work, "strided.dat");
            case hdfs -> cluster.uri("/demo/loop.dat").toString();
            case posix -> work.resolve("loop.dat").toString();
        };
        System.out.println();
        System.out.println("pdla demo: the PDLA loop on " + pfs + ": trace -> analyze -> replicate -> redirect");
        PdlaLoopDemo.Result r = new PdlaLoopDemo(processes, file, 16 * 1024, segments, Files.createDirectories(work.resolve("loop")),
                java.util.Map.of(), pfs == Pfs.simpfs ? 4 : 0, System.out).run();
        PdlaLoopDemo.Result posix = null;
        if (pfs == Pfs.simpfs) {
            // The same loop on the POSIX driver, for the wall-clock of real storage next to the model.
            System.out.println();
            System.out.println("pdla demo: the same loop on the POSIX driver");
            posix = new PdlaLoopDemo(processes, work.resolve("posix-loop.dat").toString(), 16 * 1024, segments,
                    Files.createDirectories(work.resolve("posix-loop")), java.util.Map.of(), 0, System.out).run();
        }
        System.out.println();
        System.out.printf(java.util.Locale.ROOT, "%-30s %14s %22s%n", "run (" + processes + " ranks, 16 KiB fixed-stride reads)", "read MiB/s", "reads served by replica");
        row(pfs + " run 1: original, traced", r.run1());
        row(pfs + " run 2: redirected", r.run2());
        if (posix != null) {
            row("posix run 1: original, traced", posix.run1());
            row("posix run 2: redirected", posix.run2());
        }
        System.out.println("(wall-clock on this machine; every run verified every byte)");
        schemeTable(r.traces());
        if (r.run2().servedByReplica() == 0) {
            System.err.println("pdla demo: run 2 was not served by any replica");
            throw new IllegalStateException("run 2 was not served by any replica");
        }
    }

    private static void row(String name, PdlaLoopDemo.RunFigures f) {
        long total = f.servedByReplica() + f.servedByOriginal();
        System.out.printf(java.util.Locale.ROOT, "%-30s %14.2f %22s%n", name, f.mibPerSecond(), f.servedByReplica() + " / " + total);
    }

    /**
     * The traced run 1 replayed on sim-pfs's timing model (8 HServers, 4 SServers, 64 KiB stripes) under each
     * replication scheme: virtual-time bandwidth of the read phase and of the same requests as writes.
     */
    private static void schemeTable(Path traces) throws IOException {
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
        System.out.println();
        System.out.println("run 1's requests on sim-pfs (virtual time; 8 HServers + 4 SServers, 64 KiB stripes), by replication scheme:");
        System.out.printf(java.util.Locale.ROOT, "%-9s %12s %12s  %s%n", "scheme", "read MiB/s", "write MiB/s", "replica placement (read)");
        for (io.pdla.bench.schemes.SchemeComparison.Row row : t.rows()) {
            System.out.printf(java.util.Locale.ROOT, "%-9s %12.1f %12.1f  %s%n", row.name(), row.readMiBps(), row.writeMiBps(), row.readPlacement());
        }
    }


    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
