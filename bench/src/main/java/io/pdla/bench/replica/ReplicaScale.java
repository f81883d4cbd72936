package io.pdla.bench.replica;

import io.pdla.access.ExtentList;
import io.pdla.catalog.FileLookup;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.TransientCatalogAccess;
import io.pdla.mpiio.launch.MpjJob;
import io.pdla.pattern.PatternKey;
import io.pdla.redirect.GeometryIndex;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code pdla bench replica-scale}: what the catalog costs as jobs and replica counts grow, on the production
 * classes. Versus replicas (this process): one open's catalog lookup (environment open, one read transaction,
 * the probe), the bytes rank 0 then hands to the other ranks and their decoding, and a write's search for the
 * replicas it must claim, through the interval index and through a scan of every entry (the code before it),
 * in the same run. Versus ranks (an MPJ job per count): a collective open + close through redirect against
 * every rank looking the catalog up itself.
 */
public final class ReplicaScale {
    private static final int WRITES = 20_000;

    private ReplicaScale() {
    }

    public record ReplicaRow(int replicas, double lookupMs, int sharedBytes, double decodeUs, double indexedWriteUs, double scannedWriteUs) {
    }

    public record RankRow(int ranks, double collectiveOpenMs, double everyRankLookupMs, double lookupsPerOpen) {
    }

    public static List<ReplicaRow> versusReplicas(int[] counts, int reps) throws IOException {
        List<ReplicaRow> rows = new java.util.ArrayList<>();
        for (int n : counts) {
            Path dir = Files.createTempDirectory("pdla-replica-scale");
            try {
                ReplicatedFileFixture fx = ReplicatedFileFixture.create(dir, n);
                URI uri = fx.original().toUri();
                StorageDriver driver = StorageDrivers.installed().forUri(uri);
                double[] lookup = new double[reps], decode = new double[reps];
                byte[] shared = null;
                for (int i = 0; i < reps; i++) {
                    long t0 = System.nanoTime();
                    FileLookup l = FileLookup.read(new TransientCatalogAccess(fx.catalog(), 60_000), driver, uri, p -> { });
                    lookup[i] = (System.nanoTime() - t0) / 1e6;
                    shared = l.toBytes();
                    t0 = System.nanoTime();
                    FileLookup back = FileLookup.fromBytes(shared);
                    decode[i] = (System.nanoTime() - t0) / 1e3;
                    if (back.entries().size() != n) throw new IllegalStateException("lookup of " + n + " entries decoded " + back.entries().size());
                }
                double[] perWrite = claimSearch(fx.entries(), n);
                rows.add(new ReplicaRow(n, median(lookup), shared.length, median(decode), perWrite[0], perWrite[1]));
            } finally {
                deleteTree(dir);
            }
        }
        return rows;
    }

    /** Microseconds per write to find the entries it touches: {indexed, scanned}; both must find the same. */
    private static double[] claimSearch(List<ReplicaEntry> entries, int n) {
        GeometryIndex<PatternKey, ReplicaEntry> index = new GeometryIndex<>(ReplicaEntry::key, e -> e.pattern().geometry());
        entries.forEach(index::put);
        Random r = new Random();
        ExtentList[] writes = new ExtentList[WRITES];
        for (int i = 0; i < WRITES; i++) writes[i] = ExtentList.of((long) r.nextInt(Math.max(1, n)) * ReplicatedFileFixture.BLOCK + r.nextInt(1024), 2048);
        index.touching(writes[0]);   // the tree is built once, before the first write's search
        long found = 0;
        long t0 = System.nanoTime();
        for (ExtentList w : writes) found += index.touching(w).size();
        double indexed = (System.nanoTime() - t0) / 1e3 / WRITES;
        long scannedFound = 0;
        t0 = System.nanoTime();
        for (ExtentList w : writes) scannedFound += scan(entries, w).size();
        double scanned = (System.nanoTime() - t0) / 1e3 / WRITES;
        if (found != scannedFound) throw new IllegalStateException("index found " + found + " entries, the scan " + scannedFound);
        return new double[]{indexed, scanned};
    }

    /** Every entry checked against the write: what each write did before the index. */
    private static Set<PatternKey> scan(List<ReplicaEntry> entries, ExtentList w) {
        return entries.stream()
                .filter(e -> java.util.stream.IntStream.range(0, w.size()).anyMatch(i -> e.pattern().geometry().overlaps(w.offset(i), w.length(i))))
                .map(ReplicaEntry::key).collect(Collectors.toSet());
    }

    public static List<RankRow> versusRanks(int[] ranks, int replicas, int reps, String device, long timeoutSeconds) throws IOException, InterruptedException {
        List<RankRow> rows = new java.util.ArrayList<>();
        for (int np : ranks) {
            Path dir = Files.createTempDirectory("pdla-replica-scale");
            try {
                ReplicatedFileFixture fx = ReplicatedFileFixture.create(dir, replicas);
                Path out = dir.resolve("result.txt");
                MpjJob job = MpjJob.builder(ReplicaOpenJob.class.getName()).processes(np).device(device)
                        .classPath(MpjJob.currentClassPath())
                        .args(List.of(fx.original().toString(), fx.catalog().toString(), Integer.toString(reps), out.toString()))
                        .env("PDLA_INTERCEPTORS", "redirect").env("PDLA_CATALOG", fx.catalog().toString()).build();
                MpjJob.Result r = job.run(timeoutSeconds);
                if (!Files.exists(out)) {
                    throw new IOException("the " + np + "-rank job wrote no result (exit " + r.exitCode() + (r.timedOut() ? ", timed out" : "") + "):\n" + r.output());
                }
                String[] f = Files.readString(out).trim().split(" ");
                rows.add(new RankRow(np, Double.parseDouble(f[1]), Double.parseDouble(f[2]), Double.parseDouble(f[3])));
            } finally {
                deleteTree(dir);
            }
        }
        return rows;
    }

    public static String table(List<ReplicaRow> byReplicas, List<RankRow> byRanks) {
        StringBuilder s = new StringBuilder();
        s.append("| replicas of the file | catalog lookup at open (ms, one rank) | bytes shared with the other ranks | decode (µs per rank) | write's claim search, indexed (µs) | scanned (µs) | scan / index |\n");
        s.append("|---|---|---|---|---|---|---|\n");
        for (ReplicaRow r : byReplicas) {
            s.append(String.format("| %d | %.1f | %d | %.1f | %.3f | %.3f | %.1fx |%n", r.replicas(), r.lookupMs(), r.sharedBytes(), r.decodeUs(),
                    r.indexedWriteUs(), r.scannedWriteUs(), r.scannedWriteUs() / r.indexedWriteUs()));
        }
        if (!byRanks.isEmpty()) {
            s.append("\n| ranks | collective open + close through redirect (ms) | every rank looks up the catalog itself (ms) | ratio | catalog lookups per open |\n");
            s.append("|---|---|---|---|---|\n");
            for (RankRow r : byRanks) {
                s.append(String.format("| %d | %.1f | %.1f | %.1fx | %.0f |%n", r.ranks(), r.collectiveOpenMs(), r.everyRankLookupMs(),
                        r.everyRankLookupMs() / r.collectiveOpenMs(), r.lookupsPerOpen()));
            }
        }
        return s.toString();
    }

    /** Median of the repetitions (kept here, not in the MPJ job: this class must load without MPJ). */
    static double median(double[] v) {
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
