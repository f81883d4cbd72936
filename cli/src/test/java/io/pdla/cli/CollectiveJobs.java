package io.pdla.cli;

import io.pdla.cli.programs.CollectiveStrided;
import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.launch.RankMain;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs {@link CollectiveStrided} under real MPJ ranks (multicore) and reads what it printed. */
final class CollectiveJobs {
    private static final Pattern COLL = Pattern.compile("COLL rank (\\d+) aggregators=\\[([0-9,]*)] twoPhase=(\\d+) aggregatorCalls=(\\d+) aggregatorBytes=(\\d+)");
    private static final Pattern REDIRECT = Pattern.compile("REDIRECT rank (\\d+) fromReplica=(\\d+) mixed=(\\d+) fromOriginal=(\\d+) bytesFromReplica=(\\d+)");

    /** One rank's "COLL" line: the shim's collective statistics. */
    record Coll(int rank, List<Integer> aggregators, long twoPhase, long aggregatorCalls, long aggregatorBytes) {
    }

    /** One rank's "REDIRECT" line: what redirect served. */
    record Redirected(int rank, long fromReplica, long mixed, long fromOriginal, long bytesFromReplica) {
    }

    private CollectiveJobs() {
    }

    static String tests() throws Exception {
        return Path.of(CollectiveStrided.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    /** The job's command line, which is also its application identity for PDLA. */
    static List<String> args(String data, int block, int segments, String mode, int cbNodes) {
        return List.of(data, String.valueOf(block), String.valueOf(segments), mode, String.valueOf(cbNodes));
    }

    static MpjJob.Result run(int np, List<String> args, Map<String, String> env) throws Exception {
        MpjJob.Builder b = MpjJob.builder(RankMain.class.getName()).processes(np).classPath(List.of(tests())).classPath(PdlaJar.classPath())
                .args(args)
                .env("PDLA_APP", CollectiveStrided.class.getName() + " " + String.join(" ", args))
                .env(RankMain.ENV_MAIN_CLASS, CollectiveStrided.class.getName());
        env.forEach(b::env);
        MpjJob.Result r = b.build().run(120);
        assertTrue(r.succeeded(), r.output());
        return r;
    }

    static Map<Integer, Coll> coll(MpjJob.Result r, int np) {
        Map<Integer, Coll> out = new TreeMap<>();
        Matcher m = COLL.matcher(r.output());
        while (m.find()) {
            List<Integer> aggs = new ArrayList<>();
            if (!m.group(2).isEmpty()) Arrays.stream(m.group(2).split(",")).map(Integer::valueOf).forEach(aggs::add);
            int rank = Integer.parseInt(m.group(1));
            out.put(rank, new Coll(rank, aggs, Long.parseLong(m.group(3)), Long.parseLong(m.group(4)), Long.parseLong(m.group(5))));
        }
        assertEquals(np, out.size(), "every rank reports its collective statistics:\n" + r.output());
        return out;
    }

    static Map<Integer, Redirected> redirected(MpjJob.Result r, int np) {
        Map<Integer, Redirected> out = new TreeMap<>();
        Matcher m = REDIRECT.matcher(r.output());
        while (m.find()) {
            int rank = Integer.parseInt(m.group(1));
            out.put(rank, new Redirected(rank, Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), Long.parseLong(m.group(4)), Long.parseLong(m.group(5))));
        }
        assertEquals(np, out.size(), "every rank reports redirect's statistics:\n" + r.output());
        return out;
    }
}
