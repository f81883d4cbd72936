package io.pdla.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdla.cli.demo.PdlaLoopDemo;
import io.pdla.cli.demo.PdlaLoopDemo.RunFigures;
import io.pdla.cli.demo.StridedApp;
import io.pdla.size.ByteSize;
import io.pdla.size.ByteSizeConverter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code pdla bench direct}: the PDLA loop on real storage without a page cache. MPJ ranks read 16 KiB blocks
 * of their own regions with a stride of two blocks through the shim with {@code posix_direct_io=true} (run 1,
 * traced), the daemon builds the replicas, then each round times run 1 again on the original, run 2 through
 * redirect without and with read-ahead, and each rank reading its region in 4 MiB requests (the device's large
 * sequential limit), all in the same rounds so they compare as ratios. The ranks start each timed loop
 * together at a barrier, and every run verifies every byte after its clock stops (see {@link StridedApp}).
 */
@Command(name = "direct", mixinStandardHelpOptions = true,
        description = "Run 1 vs run 2 of the PDLA loop on the POSIX driver with O_DIRECT (no page cache), with and without "
                + "read-ahead, next to a large sequential O_DIRECT read of the same file.")
final class DirectBenchCommand implements Callable<Integer> {
    @Option(names = "-np", defaultValue = "4", description = "MPJ ranks (default: ${DEFAULT-VALUE}).")
    int processes;

    @Option(names = "--block", defaultValue = "16k", converter = ByteSizeConverter.class,
            description = "Request size, a multiple of 4 KiB (default: 16k).")
    long block;

    @Option(names = "--per-rank", defaultValue = "32m", converter = ByteSizeConverter.class,
            description = "Bytes each rank reads per run; its region of the file is twice that (default: 32m).")
    long perRank;

    @Option(names = "--rounds", defaultValue = "3", description = "Rounds of the four timed runs (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--readahead", defaultValue = "4m", converter = ByteSizeConverter.class,
            description = "Read-ahead memory per open file for the read-ahead variant of run 2 (default: 4m).")
    long readAhead;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the settings, every round and the medians as JSON.")
    Path json;

    @Option(names = "--dev", defaultValue = "multicore", description = "MPJ device: multicore, niodev or hybdev (default: ${DEFAULT-VALUE}).")
    String device;

    @Option(names = "--machines", description = "Machines file for niodev/hybdev: the runs across these hosts; MPJ daemons as for `pdla run --machines`.")
    Path machines;

    @Option(names = "--dir", description = "Directory on the storage to measure; must support O_DIRECT (default: a new directory under java.io.tmpdir, removed afterwards).")
    Path dir;

    @Override
    public Integer call() throws Exception {
        if (processes <= 0) return bad("-np must be > 0, was " + processes);
        if (block <= 0 || block % 4096 != 0 || block > Integer.MAX_VALUE) return bad("--block must be a positive multiple of 4k, was " + block);
        if (perRank < block || perRank % block != 0) return bad("--per-rank must be a multiple of --block, was " + perRank);
        // A rank's sequential read of its whole region (2 x --per-rank) lands in one buffer.
        if (2 * perRank > Integer.MAX_VALUE) return bad("--per-rank must be below 1g, was " + perRank);
        if (rounds <= 0) return bad("--rounds must be > 0, was " + rounds);
        if (readAhead <= 0) return bad("--readahead must be > 0, was " + readAhead);
        // Checked before the minutes of runs, not when the figures are ready to write.
        Path jsonDir = json == null ? null : json.toAbsolutePath().getParent();
        if (jsonDir != null && !Files.isDirectory(jsonDir)) return bad("--json: directory " + jsonDir + " does not exist");
        if (!device.equals("multicore") && machines == null) return bad("--dev " + device + " needs --machines FILE");
        return MpjDaemons.runJob(device, machines, DirectBenchCommand::bad, this::measure);
    }

    private int measure() throws Exception {
        boolean temporary = dir == null;
        Path work = temporary ? Files.createTempDirectory("pdla-direct") : Files.createDirectories(dir);
        try {
            String why = directIoUnsupported(work);
            if (why != null) return bad("O_DIRECT is not supported in " + work + " (" + why + "); give --dir on a disk file system");
            int segments = Math.toIntExact(perRank / block);
            System.out.printf(Locale.ROOT, "pdla bench direct: %d ranks, %s requests, stride %s, %s per rank, file %s, O_DIRECT, in %s%n",
                    processes, ByteSize.format(block), ByteSize.format(2 * block), ByteSize.format(perRank), ByteSize.format(2 * perRank * processes), work);
            PdlaLoopDemo loop = new PdlaLoopDemo(processes, work.resolve("direct.dat").toString(), (int) block, segments,
                    Files.createDirectories(work.resolve("loop")), Map.of(), 0, System.out, List.of("direct")).onMachines(device, machines);
            loop.run();
            System.out.println();
            System.out.printf(Locale.ROOT, "%-6s %12s %16s %16s %16s %12s %12s%n", "round", "run 1 MiB/s", "run 2 no RA", "run 2 RA " + ByteSize.format(readAhead),
                    "sequential " + ByteSize.format(StridedApp.SEQUENTIAL_REQUEST), "run2RA/run1", "run2RA/seq");
            List<Round> done = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                RunFigures run1 = loop.originalRead();
                RunFigures plain = loop.redirectedRead(Map.of("PDLA_READAHEAD_BYTES", "0"));
                RunFigures ahead = loop.redirectedRead(Map.of("PDLA_READAHEAD_BYTES", Long.toString(readAhead)));
                RunFigures seq = loop.sequentialRead();
                for (RunFigures f : List.of(plain, ahead)) {
                    if (f.servedByReplica() < (long) segments * processes) {
                        throw new IllegalStateException("run 2 was served by replicas for only " + f.servedByReplica() + " of " + (long) segments * processes + " reads");
                    }
                }
                Round round = new Round(run1, plain, ahead, seq);
                done.add(round);
                print(Integer.toString(r), round.mibPerSecond());
            }
            double[] median = median(done.stream().map(Round::mibPerSecond).toList());
            print("median", median);
            System.out.println("(MiB/s of the slowest rank's read loop; every byte verified after its clock stopped; run 2 reads were all served by replicas)");
            if (json != null) writeJson(work, done, median);
            return 0;
        } finally {
            if (temporary) deleteTree(work);
        }
    }

    /** One round's four timed runs. */
    private record Round(RunFigures run1, RunFigures run2NoReadAhead, RunFigures run2ReadAhead, RunFigures sequential) {
        double[] mibPerSecond() {
            return new double[]{run1.mibPerSecond(), run2NoReadAhead.mibPerSecond(), run2ReadAhead.mibPerSecond(), sequential.mibPerSecond()};
        }
    }

    private static final String[] COLUMNS = {"run1MiBps", "run2NoReadAheadMiBps", "run2ReadAheadMiBps", "sequentialMiBps"};

    private void writeJson(Path work, List<Round> done, double[] median) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("ranks", processes).put("blockBytes", block).put("strideBytes", 2 * block).put("perRankBytes", perRank)
                .put("fileBytes", 2 * perRank * processes).put("readAheadBytes", readAhead)
                .put("sequentialRequestBytes", StridedApp.SEQUENTIAL_REQUEST).put("dir", work.toString())
                .put("sequential", "each rank reads its own contiguous region of the file");
        ArrayNode rounds = root.putArray("rounds");
        for (Round r : done) {
            rounds.add(figures(mapper, r.mibPerSecond())
                    .put("run2NoReadAheadServedByReplica", r.run2NoReadAhead().servedByReplica())
                    .put("run2NoReadAheadServedByOriginal", r.run2NoReadAhead().servedByOriginal())
                    .put("run2ReadAheadServedByReplica", r.run2ReadAhead().servedByReplica())
                    .put("run2ReadAheadServedByOriginal", r.run2ReadAhead().servedByOriginal()));
        }
        root.set("median", figures(mapper, median));
        mapper.writerWithDefaultPrettyPrinter().writeValue(json.toFile(), root);
    }

    private static ObjectNode figures(ObjectMapper mapper, double[] row) {
        ObjectNode n = mapper.createObjectNode();
        for (int c = 0; c < COLUMNS.length; c++) n.put(COLUMNS[c], row[c]);
        return n.put("run2NoReadAheadOverRun1", row[1] / row[0]).put("run2ReadAheadOverRun1", row[2] / row[0])
                .put("run2ReadAheadOverSequential", row[2] / row[3]);
    }

    private static void print(String label, double[] r) {
        System.out.printf(Locale.ROOT, "%-6s %12.1f %16s %16s %16.1f %12s %12s%n", label, r[0],
                String.format(Locale.ROOT, "%.1f (%.2fx)", r[1], r[1] / r[0]), String.format(Locale.ROOT, "%.1f (%.2fx)", r[2], r[2] / r[0]),
                r[3], String.format(Locale.ROOT, "%.2fx", r[2] / r[0]), String.format(Locale.ROOT, "%.0f%%", 100 * r[2] / r[3]));
    }

    private static double[] median(List<double[]> rows) {
        double[] m = new double[4];
        for (int c = 0; c < 4; c++) {
            final int col = c;
            double[] v = rows.stream().mapToDouble(r -> r[col]).sorted().toArray();
            m[c] = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        }
        return m;
    }

    /**
     * Null when a 4 KiB O_DIRECT read works in {@code dir}; the reason when the JVM or the file system has no O_DIRECT
     * (EINVAL at open). Any other failure (writing the probe, permissions, the read) is thrown as it is.
     */
    static String directIoUnsupported(Path dir) throws IOException {
        Path probe = dir.resolve(".pdla-direct-probe");
        try {
            Files.write(probe, new byte[8192]);
            FileChannel ch;
            try {
                ch = FileChannel.open(probe, StandardOpenOption.READ, com.sun.nio.file.ExtendedOpenOption.DIRECT);
            } catch (UnsupportedOperationException e) {
                return "this JVM has no O_DIRECT: " + e.getMessage();
            } catch (IOException e) {
                if (io.pdla.storage.posix.PosixDriver.directIoRefused(e)) return "open with O_DIRECT: EINVAL, the file system has no direct I/O";
                throw e;
            }
            try (ch) {
                ch.read(ByteBuffer.allocateDirect(8192).alignedSlice(4096).limit(4096), 0);
            }
            return null;
        } finally {
            try {
                Files.deleteIfExists(probe);
            } catch (IOException ignored) {
                // a probe file left in a scratch directory
            }
        }
    }

    private static int bad(String message) {
        System.err.println("pdla bench direct: " + message);
        return 2;
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
