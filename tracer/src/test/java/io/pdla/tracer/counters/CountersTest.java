package io.pdla.tracer.counters;

import io.pdla.darshan.Counter;
import io.pdla.darshan.PosixCounter;
import io.pdla.darshan.PosixFCounter;
import io.pdla.darshan.MpiioCounter;
import io.pdla.darshan.MpiioFCounter;
import io.pdla.darshan.SizeBins;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.access.TraceRecord;
import io.pdla.tracer.format.RankSummary;
import io.pdla.tracer.format.TraceDirectory;
import io.pdla.tracer.testing.TracedJob;
import io.pdla.tracer.testing.TracedJob.Expected;
import io.pdla.tracer.testing.Workloads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Counters of known workloads equal the values computed independently from the issued requests. */
class CountersTest {
    @TempDir
    Path tmp;

    private TracedJob job(int nprocs) throws IOException {
        return new TracedJob(Files.createDirectories(tmp.resolve("data")), tmp.resolve("trace"), nprocs, "CounterWorkload");
    }

    private static TracedRecord record(List<TracedRecord> records, Module m, int rank, String path) {
        return records.stream().filter(r -> r.module() == m && r.rank() == rank && r.fileName().equals(path)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + m + " record for rank " + rank + " and " + path + " in " + records));
    }

    private static void assertCounters(Map<String, Long> want, TracedRecord got, String what) {
        for (Map.Entry<String, Long> e : want.entrySet()) {
            Counter c = got.module().counters().stream().filter(x -> x.name().equals(e.getKey())).findFirst().orElseThrow();
            assertEquals(e.getValue(), got.get(c), what + " " + e.getKey());
        }
    }

    /** Per rank and file: every countable counter equals the naive computation over the requests. */
    private static void checkPerRank(TracedJob job) throws IOException {
        List<RankSummary> summaries = TraceDirectory.readSummaries(job.traceDir);
        TraceDirectory traces = TraceDirectory.open(job.traceDir);
        for (RankSummary s : summaries) {
            List<Expected> all = job.expected(s.rank());
            for (String path : all.stream().map(Expected::path).distinct().toList()) {
                List<Expected> mine = all.stream().filter(e -> e.path().equals(path)).toList();
                TracedRecord posix = record(s.records(), Module.POSIX, s.rank(), path);
                TracedRecord mpiio = record(s.records(), Module.MPIIO, s.rank(), path);
                assertCounters(NaiveCounters.posix(mine, posix.get(PosixCounter.POSIX_FILE_ALIGNMENT), job.storeOpens), posix, "rank " + s.rank() + " POSIX");
                assertCounters(NaiveCounters.mpiio(mine, 9), mpiio, "rank " + s.rank() + " MPI-IO");
                checkTimesAgainstTrace(traces, s, path, posix, mpiio);
            }
        }
    }

    /**
     * The trace and the counters saw the same calls with the same clock: first/last timestamps and the
     * cumulative read/write time (one thread per rank, so no overlap) follow from the trace records.
     */
    private static void checkTimesAgainstTrace(TraceDirectory traces, RankSummary s, String path, TracedRecord posix, TracedRecord mpiio) {
        long shift = traces.shiftNanos(s.rank());
        int fileId = s.files().entrySet().stream().filter(e -> e.getValue().equals(path)).findFirst().orElseThrow().getKey();
        List<TraceRecord> recs;
        try (Stream<TraceRecord> st = traces.records(s.rank())) {
            recs = st.filter(r -> r.fileId() == fileId).toList();
        }
        for (IoOp op : new IoOp[]{IoOp.READ, IoOp.WRITE}) {
            List<TraceRecord> ops = recs.stream().filter(r -> r.op() == op).toList();
            if (ops.isEmpty()) continue;
            boolean read = op == IoOp.READ;
            double first = ops.get(0).startNanos() / 1e9, last = ops.get(ops.size() - 1).endNanos() / 1e9;
            // distinct calls: extents of one call share start and end
            List<TraceRecord> calls = new ArrayList<>();
            for (TraceRecord r : ops) {
                if (calls.isEmpty() || calls.get(calls.size() - 1).startNanos() != r.startNanos()) calls.add(r);
            }
            double busy = calls.stream().mapToLong(r -> r.endNanos() - r.startNanos()).sum() / 1e9;
            double syncs = recs.stream().filter(r -> r.op() == IoOp.SYNC).mapToLong(r -> r.endNanos() - r.startNanos()).sum() / 1e9;
            for (TracedRecord c : List.of(posix, mpiio)) {
                List<Counter> f = c.module().fcounters();
                double shiftS = shift / 1e9;
                assertEquals(first, c.getF(f.get(read ? 1 : 2)) + shiftS, 1e-6, c + " first " + op);
                assertEquals(last, c.getF(f.get(read ? 5 : 6)) + shiftS, 1e-6, c + " last " + op);
                assertEquals(busy + (read ? 0 : syncs), c.getF(f.get(read ? 8 : 9)), 1e-6, c + " cumulative " + op + " time");
                assertTrue(c.getF(f.get(read ? 11 : 12)) <= busy + 1e-9 && c.getF(f.get(read ? 11 : 12)) > 0, c + " slowest " + op);
            }
        }
    }

    @Test
    void iorSegmentedPerRankAndSharedReduction() throws Exception {
        TracedJob job = job(4);
        try (job) {
            Workloads.iorSegmented(job, "seg", 3, 64 * 1024, 4096);
        }
        checkPerRank(job);

        CounterLog log = CounterLog.load(job.traceDir);
        String path = job.expected(0).get(0).path();
        assertEquals(2, log.records().size(), "one shared record per module: " + log.records());
        TracedRecord shared = record(log.records(), Module.POSIX, -1, path);
        List<Expected> everyone = new ArrayList<>();
        for (int r = 0; r < 4; r++) everyone.addAll(job.expected(r));
        long bytesWritten = everyone.stream().filter(e -> e.op() == IoOp.WRITE).mapToLong(Expected::length).sum();
        assertEquals(bytesWritten, shared.get(PosixCounter.POSIX_BYTES_WRITTEN));
        assertEquals(4L * job.storeOpens, shared.get(PosixCounter.POSIX_OPENS), "every rank's descriptors, as the POSIX layer saw them");
        long seqSum = 0;
        for (int r = 0; r < 4; r++) seqSum += NaiveCounters.posix(job.expected(r), 4096).get("POSIX_SEQ_WRITES");
        assertEquals(seqSum, shared.get(PosixCounter.POSIX_SEQ_WRITES));
        assertEquals(everyone.stream().filter(e -> e.op() == IoOp.WRITE).mapToLong(e -> e.offset() + e.length() - 1).max().orElseThrow(),
                shared.get(PosixCounter.POSIX_MAX_BYTE_WRITTEN));
        // merged common tables equal the frequencies over all ranks' requests
        Map<String, Long> global = NaiveCounters.posix(everyone.stream().filter(e -> e.op().movesData()).toList(), 4096);
        assertEquals(global.get("POSIX_ACCESS1_ACCESS"), shared.get(PosixCounter.POSIX_ACCESS1_ACCESS));
        assertEquals(global.get("POSIX_ACCESS1_COUNT"), shared.get(PosixCounter.POSIX_ACCESS1_COUNT));
        checkFastestSlowest(job, Module.POSIX, path, shared);
        checkFastestSlowest(job, Module.MPIIO, path, record(log.records(), Module.MPIIO, -1, path));
    }

    /** Fastest/slowest rank and variances, recomputed from the per-rank records in a plain loop. */
    private static void checkFastestSlowest(TracedJob job, Module m, String path, TracedRecord shared) throws IOException {
        List<TracedRecord> perRank = new ArrayList<>();
        for (RankSummary s : TraceDirectory.readSummaries(job.traceDir)) perRank.add(record(s.records(), m, s.rank(), path));
        int fastest = -1, slowest = -1;
        double best = Double.MAX_VALUE, worst = -1, sum = 0, sumSq = 0, bsum = 0, bsumSq = 0;
        for (TracedRecord r : perRank) {
            List<Counter> f = m.fcounters();
            double t = r.getF(f.get(8)) + r.getF(f.get(9)) + r.getF(f.get(10));
            long bytes = r.get(m.counters().stream().filter(c -> c.name().endsWith("_BYTES_READ")).findFirst().orElseThrow())
                    + r.get(m.counters().stream().filter(c -> c.name().endsWith("_BYTES_WRITTEN")).findFirst().orElseThrow());
            if (t < best) { best = t; fastest = r.rank(); }
            if (t > worst) { worst = t; slowest = r.rank(); }
            sum += t;
            sumSq += t * t;
            bsum += bytes;
            bsumSq += (double) bytes * bytes;
        }
        int n = perRank.size();
        String p = m == Module.POSIX ? "POSIX" : "MPIIO";
        assertEquals(fastest, shared.get(counter(m, p + "_FASTEST_RANK")), m + " fastest rank");
        assertEquals(slowest, shared.get(counter(m, p + "_SLOWEST_RANK")), m + " slowest rank");
        assertEquals(best, shared.getF(fcounter(m, p + "_F_FASTEST_RANK_TIME")), 1e-12);
        assertEquals(worst, shared.getF(fcounter(m, p + "_F_SLOWEST_RANK_TIME")), 1e-12);
        double varT = 0;
        for (TracedRecord r : perRank) {
            List<Counter> f = m.fcounters();
            double t = r.getF(f.get(8)) + r.getF(f.get(9)) + r.getF(f.get(10));
            varT += (t - sum / n) * (t - sum / n);
        }
        assertEquals(varT / n, shared.getF(fcounter(m, p + "_F_VARIANCE_RANK_TIME")), 1e-12);
        assertEquals(bsumSq / n - (bsum / n) * (bsum / n), shared.getF(fcounter(m, p + "_F_VARIANCE_RANK_BYTES")), 1e-3);
    }

    private static Counter counter(Module m, String name) {
        return m.counters().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    private static Counter fcounter(Module m, String name) {
        return m.fcounters().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void imbalancedSharedFileHasByteVarianceAndSlowestRankCarriesItsBytes() throws Exception {
        TracedJob job = job(3);
        try (job) {
            job.runRanks(rank -> {
                TracedJob.RankFile f = job.open(rank, "imb", 3);
                for (int i = 0; i < (rank + 1) * 10; i++) f.write(Positioning.EXPLICIT_OFFSET, false, ExtentList.of((i * 3L + rank) * 1000, 1000));
                f.close();
            });
        }
        checkPerRank(job);
        CounterLog log = CounterLog.load(job.traceDir);
        String path = job.expected(0).get(0).path();
        TracedRecord shared = record(log.records(), Module.POSIX, -1, path);
        double mean = (10_000 + 20_000 + 30_000) / 3.0;
        double var = ((10_000 - mean) * (10_000 - mean) + (20_000 - mean) * (20_000 - mean) + (30_000 - mean) * (30_000 - mean)) / 3;
        assertEquals(var, shared.getF(PosixFCounter.POSIX_F_VARIANCE_RANK_BYTES), 1e-3);
        int slowest = (int) shared.get(PosixCounter.POSIX_SLOWEST_RANK);
        assertEquals((slowest + 1) * 10_000L, shared.get(PosixCounter.POSIX_SLOWEST_RANK_BYTES));
        checkFastestSlowest(job, Module.POSIX, path, shared);
    }

    @Test
    void stridedTileAndFilePerProcessCounters() throws Exception {
        TracedJob strided = new TracedJob(Files.createDirectories(tmp.resolve("d1")), tmp.resolve("t1"), 4, "Strided");
        try (strided) {
            Workloads.iorStrided(strided, "str", 50, 3000);
        }
        checkPerRank(strided);
        TracedJob tiles = new TracedJob(Files.createDirectories(tmp.resolve("d2")), tmp.resolve("t2"), 4, "Tiles");
        try (tiles) {
            Workloads.tileRead(tiles, "tiles", 2, 32, 16, 8, 2);
        }
        checkPerRank(tiles);
        TracedJob fpp = new TracedJob(Files.createDirectories(tmp.resolve("d3")), tmp.resolve("t3"), 2, "Fpp");
        try (fpp) {
            Workloads.filePerProcess(fpp, "f", 100_000, 10_000);
        }
        checkPerRank(fpp);
        CounterLog log = CounterLog.load(fpp.traceDir);
        assertEquals(4, log.records().size(), "unique files are not reduced");
        assertTrue(log.records().stream().noneMatch(r -> r.rank() == -1));
    }

    @Test
    void darshanParserLayoutWithTotalAndPerf() throws Exception {
        TracedJob job = job(2);
        try (job) {
            Workloads.iorStrided(job, "p", 20, 2048);
        }
        CounterLog log = CounterLog.load(job.traceDir);
        StringWriter w = new StringWriter();
        DarshanText.print(log, true, true, new PrintWriter(w));
        String[] lines = w.toString().split("\n");
        assertTrue(lines[0].startsWith("# darshan log version:"));
        assertTrue(w.toString().contains("\n# nprocs: 2\n"));
        assertTrue(w.toString().contains("\n# exe: CounterWorkload\n"));
        int counterLines = 0;
        long bytesWritten = -1;
        for (String l : lines) {
            if (l.startsWith("#") || l.isBlank() || l.startsWith("total_")) continue;
            String[] f = l.split("\t");
            assertEquals(8, f.length, l);
            assertEquals("-1", f[1], "shared record: " + l);
            assertEquals(Long.toUnsignedString(DarshanHash.of(f[5])), f[2]);
            counterLines++;
            if (f[3].equals("POSIX_BYTES_WRITTEN")) bytesWritten = Long.parseLong(f[4]);
        }
        assertEquals(PosixCounter.values().length + PosixFCounter.values().length + MpiioCounter.values().length + MpiioFCounter.values().length,
                counterLines);
        assertEquals(2 * 20 * 2048, bytesWritten);
        assertTrue(w.toString().contains("\ntotal_POSIX_BYTES_WRITTEN: " + (2 * 20 * 2048) + "\n"));
        assertTrue(w.toString().contains("\n# total_bytes: " + (2 * 2 * 20 * 2048) + "\n"), "POSIX bytes read + written");
        io.pdla.darshan.CounterTotals.Perf perf = DarshanText.perf(Module.POSIX, log.records(Module.POSIX));
        assertEquals(shared(log).getF(PosixFCounter.POSIX_F_SLOWEST_RANK_TIME), perf.sharedTimeBySlowest(), 0);
    }

    private static TracedRecord shared(CounterLog log) {
        return log.records(Module.POSIX).get(0);
    }

    @Test
    void commonValueTableFollowsDarshansOnlineRule() {
        CommonValues v = new CommonValues();
        long[] seq = {5, 5, 7, 0, 0, 0, 9, 9, 9, 11, 13, 13};
        for (long x : seq) v.observe(x);
        // 9 x3, 5 x2, 13 x2 (13 > 5 breaks the tie), then 11 and 7 tie at 1: larger value first
        assertEquals(List.of(9L, 13L, 5L, 11L), List.of(v.value(0), v.value(1), v.value(2), v.value(3)));
        assertEquals(List.of(3L, 2L, 2L, 1L), List.of(v.count(0), v.count(1), v.count(2), v.count(3)));
        CommonValues capped = new CommonValues();
        for (int i = 1; i <= CommonValues.MAX_DISTINCT; i++) capped.observe(i);
        for (int i = 0; i < 5; i++) capped.observe(1000);
        assertEquals(CommonValues.MAX_DISTINCT, capped.value(0), "a 33rd distinct value is ignored");
    }

    @Test
    void sizeBinsUseDarshansInclusiveEdges() {
        assertEquals(0, SizeBins.bin(100));
        assertEquals(1, SizeBins.bin(101));
        assertEquals(1, SizeBins.bin(1024));
        assertEquals(2, SizeBins.bin(1025));
        assertEquals(4, SizeBins.bin(1048576));
        assertEquals(5, SizeBins.bin(1048577));
        assertEquals(8, SizeBins.bin(1073741824L));
        assertEquals(9, SizeBins.bin(1073741825L));
    }
}
