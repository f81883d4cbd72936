package io.pdla.cli;

import io.pdla.cli.demo.IterativeReader;
import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.launch.RankMain;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** cli's IterativeReader as the online-PDLA tests run it, and what they read back from its output. */
final class IterativeReaderRuns {
    private static final Pattern SERVED = Pattern.compile("SERVED rank (\\d+) pass (\\d+) fromReplica=(\\d+) mixed=(\\d+) fromOriginal=(\\d+)");
    private static final Pattern PASSES = Pattern.compile("VERIFIED rank 0 passes=(\\d+)");

    private IterativeReaderRuns() {
    }

    /** A job of {@code ranks} IterativeReader ranks with online PDLA on, its pattern spool and catalog under {@code dir}. */
    static MpjJob.Builder onlineJob(Path dir, int ranks, List<String> args) {
        return MpjJob.builder(RankMain.class.getName()).processes(ranks).classPath(PdlaJar.classPath()).args(args)
                .env("PDLA_APP", String.join(" ", IterativeReader.class.getName(), String.join(" ", args)))
                .env(RankMain.ENV_MAIN_CLASS, IterativeReader.class.getName())
                .env("PDLA_ONLINE", "true").env("PDLA_PATTERNS", dir.resolve("patterns").toString())
                .env("PDLA_CATALOG", dir.resolve("catalog").toString());
    }

    static int passesRun(MpjJob.Result r) {
        Matcher m = PASSES.matcher(r.output());
        assertTrue(m.find(), r.output());
        return Integer.parseInt(m.group(1));
    }

    /** Every one of {@code ranks} ranks verified every pass; rank -> pass -> {fromReplica, mixed, fromOriginal}. */
    static Map<Integer, Map<Integer, long[]>> verified(MpjJob.Result r, int passes, int ranks) {
        assertTrue(r.succeeded(), r.output());
        assertFalse(r.output().contains("differs"), r.output());
        assertEquals(ranks, r.output().lines().filter(l -> l.startsWith("VERIFIED rank") && l.contains("passes=" + passes)).count(), r.output());
        Map<Integer, Map<Integer, long[]>> out = new TreeMap<>();
        Matcher m = SERVED.matcher(r.output());
        while (m.find()) {
            out.computeIfAbsent(Integer.parseInt(m.group(1)), k -> new TreeMap<>()).put(Integer.parseInt(m.group(2)),
                    new long[]{Long.parseLong(m.group(3)), Long.parseLong(m.group(4)), Long.parseLong(m.group(5))});
        }
        assertEquals(ranks, out.size(), r.output());
        for (var e : out.entrySet()) assertEquals(passes, e.getValue().size(), "passes reported by rank " + e.getKey());
        return out;
    }
}
