package io.pdla.cli;

import io.pdla.access.TraceRecord;
import io.pdla.cli.programs.SharedLoadersProgram;
import io.pdla.darshan.Counter;
import io.pdla.darshan.MpiioCounter;
import io.pdla.darshan.PosixCounter;
import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.launch.SharedClassesJar;
import io.pdla.tracer.counters.Module;
import io.pdla.tracer.counters.TracedRecord;
import io.pdla.tracer.format.RankSummary;
import io.pdla.tracer.format.TraceDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real 4-rank multicore job with pdla's MPI-free classes shared (the default) and one with
 * {@code PDLA_SHARED_CLASSES=false}, both traced: with sharing every rank's copy of the shared classes is the
 * system class loader's, one for all, while the shim's File stays each rank's own; without it every class is the
 * rank's. The data is right byte for byte both ways, and every rank's trace and counters are its own: the same in
 * both jobs, rank by rank.
 */
class SharedClassesJobTest {
    private static final Pattern LOADER = Pattern.compile("^LOADER (\\d+) (\\S+) (\\S+) (\\w+)$", Pattern.MULTILINE);
    private static final int NP = 4;

    @TempDir
    Path dir;

    @Test
    void ranksShareTheMpiFreeClassesAndKeepTheirOwnTracesAndCounters() throws Exception {
        MpjJob.Result shared = run("shared", null);
        MpjJob.Result own = run("own", "false");

        Map<String, Map<Integer, String[]>> sharedLoaders = loaders(shared), ownLoaders = loaders(own);
        for (String name : SharedLoadersProgram.CLASSES) {
            boolean isShim = name.startsWith("io.pdla.mpiio.");
            Set<String> identities = new HashSet<>();
            for (int rank = 0; rank < NP; rank++) {
                String[] s = sharedLoaders.get(name).get(rank);
                assertEquals(isShim ? "rank" : "system", s[1], name + " on rank " + rank + " with sharing:\n" + shared.output());
                identities.add(s[0]);
                assertEquals("rank", ownLoaders.get(name).get(rank)[1], name + " on rank " + rank + " without sharing:\n" + own.output());
            }
            assertEquals(isShim ? NP : 1, identities.size(), "distinct loaders of " + name + " among the ranks with sharing");
        }

        Path a = dir.resolve("trace-shared"), b = dir.resolve("trace-own");
        TraceDirectory ta = TraceDirectory.open(a), tb = TraceDirectory.open(b);
        assertEquals(List.of(0, 1, 2, 3), ta.ranks());
        assertEquals(ta.ranks(), tb.ranks());
        for (int rank = 0; rank < NP; rank++) {
            List<String> ra = calls(ta, rank), rb = calls(tb, rank);
            assertTrue(ra.size() >= 3 * 32, "rank " + rank + " traced its writes and reads: " + ra.size());
            assertEquals(rb, ra, "rank " + rank + "'s traced calls with and without sharing");
        }
        Map<Integer, Map<String, Long>> ca = counters(ta), cb = counters(tb);
        assertEquals(cb, ca, "every rank's counters with and without sharing");
        for (int rank = 0; rank < NP; rank++) {
            // a rank's counters are its own: its 32 writes of its own blocks, no other rank's
            long writes = ca.get(rank).entrySet().stream().filter(e -> e.getKey().startsWith("POSIX ") && e.getKey().endsWith(" POSIX_WRITES"))
                    .mapToLong(Map.Entry::getValue).sum();
            assertEquals(32L, writes, "rank " + rank + "'s POSIX writes: " + ca.get(rank));
        }
    }

    private MpjJob.Result run(String name, String sharing) throws Exception {
        MpjJob.Builder job = MpjJob.builder(SharedLoadersProgram.class.getName()).processes(NP)
                .classPath(List.of(CollectiveJobs.tests())).classPath(PdlaJar.classPath())
                .args(List.of(dir.resolve(name + ".dat").toString()))
                .env("PDLA_INTERCEPTORS", "tracer")
                .env("PDLA_TRACE_DIR", dir.resolve("trace-" + name).toString());
        if (sharing != null) job.env(SharedClassesJar.ENV, sharing);
        MpjJob.Result r = job.build().run(120);
        assertTrue(r.succeeded(), r.output());
        for (int rank = 0; rank < NP; rank++) assertTrue(r.output().contains("DATA " + rank + " ok"), r.output());
        return r;
    }

    /** class -> rank -> {loader identity, system|rank|other}. */
    private static Map<String, Map<Integer, String[]>> loaders(MpjJob.Result r) {
        Map<String, Map<Integer, String[]>> out = new TreeMap<>();
        Matcher m = LOADER.matcher(r.output());
        while (m.find()) out.computeIfAbsent(m.group(2), k -> new TreeMap<>()).put(Integer.parseInt(m.group(1)), new String[]{m.group(3), m.group(4)});
        for (String c : SharedLoadersProgram.CLASSES) assertEquals(NP, out.getOrDefault(c, Map.of()).size(), "every rank reports " + c + ":\n" + r.output());
        return out;
    }

    /** A rank's traced calls without their times and file ids: operation, offset, length, collective or not. */
    private static List<String> calls(TraceDirectory t, int rank) {
        try (var s = t.records(rank)) {
            return s.map(SharedClassesJobTest::call).collect(Collectors.toList());
        }
    }

    private static String call(TraceRecord r) {
        return r.op() + " " + r.offset() + "+" + r.length() + (r.collective() ? " coll" : "");
    }

    /** Per rank, "MODULE file COUNTER" -> value for the counters that count (not times, not timestamps). */
    private static Map<Integer, Map<String, Long>> counters(TraceDirectory t) throws Exception {
        Map<Integer, Map<String, Long>> out = new TreeMap<>();
        List<Counter> counted = new ArrayList<>();
        for (PosixCounter c : PosixCounter.values()) if (c.name().matches("POSIX_(OPENS|READS|WRITES|BYTES_READ|BYTES_WRITTEN|CONSEC_READS|SEQ_WRITES)")) counted.add(c);
        for (MpiioCounter c : MpiioCounter.values()) if (c.name().matches("MPIIO_(INDEP|COLL)_(OPENS|READS|WRITES)|MPIIO_BYTES_(READ|WRITTEN)")) counted.add(c);
        for (RankSummary s : t.summaries()) {
            Map<String, Long> mine = out.computeIfAbsent(s.rank(), k -> new TreeMap<>());
            for (TracedRecord r : s.records()) {
                // the two jobs' files differ only in name
                String file = r.fileName().replace("own.dat", "shared.dat");
                for (Counter c : counted) {
                    boolean mpiio = r.module() == Module.MPIIO;
                    if (mpiio != (c instanceof MpiioCounter)) continue;
                    mine.merge(r.module().name() + " " + file + " " + c.name(), r.get(c), Long::sum);
                }
            }
        }
        return out;
    }
}
