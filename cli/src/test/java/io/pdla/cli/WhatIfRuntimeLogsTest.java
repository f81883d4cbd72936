package io.pdla.cli;

import static io.pdla.cli.AnalyzeCommandTest.run;
import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdla.bench.schemes.Scheme;
import io.pdla.darshan.ModuleId;
import io.pdla.darshan.RuntimeLogs;
import io.pdla.size.ByteSize;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pdla what-if} on logs the real Darshan runtime wrote ({@link RuntimeLogs}: IOR with 4 tasks through POSIX and
 * MPI-IO, a Python program, a run without DXT). The expectations come from the programs' parameters: IOR's
 * {@code -b 16k -t 16k -s 16} on 4 tasks is, per rank, 16 KiB requests at a 64 KiB stride, and all ranks together one
 * contiguous MiB.
 */
class WhatIfRuntimeLogsTest {
    private static final String IOR_DIR = "/tmp/pdla-darshan-samples/";
    private static final int TASKS = RuntimeLogs.IOR_TASKS, BLOCK = RuntimeLogs.IOR_BLOCK, SEGMENTS = RuntimeLogs.IOR_SEGMENTS;

    @TempDir
    Path tmp;

    @Test
    void iorPosixGivesEachRanksStrideTheGlobalContiguousRangeAndEverySchemesTimes() throws IOException {
        Path log = RuntimeLogs.get(RuntimeLogs.IOR_POSIX);
        JsonNode root = whatIf(log, 0);
        JsonNode file = file(root, IOR_DIR + "ior-posix.dat");
        assertTrue(file.get("predicted").asBoolean());
        assertEquals("DXT_POSIX", file.get("dxtModule").asText());
        assertEquals(TASKS, file.get("ranksWithSegments").asInt());
        assertIorShape(file);
        assertEquals(TASKS, root.get("processes").asInt());
        assertTrue(root.get("application").asText().contains("ior -a POSIX -b 16k -t 16k -s 16"), root.get("application").asText());
        // what else Darshan recorded: STDIO (IOR's report on stdout), which DXT does not trace
        assertTrue(root.get("notes").toString().contains("only STDIO records"), root.get("notes").toString());
        // the text shows the global range and, under it, each rank's stride
        AnalyzeCommandTest.Run r = run(new WhatIfCommand(), log.toString());
        assertTrue(r.out().contains("CONTIGUOUS global[4 ranks 0..3] {READ, @0B, 16KiB, CONTIG 1MiB"), r.out());
        assertTrue(r.out().contains("per rank: STRIDED rank 0 {READ, @0B, 16KiB, STRIDE 64KiB x 16, 16 req"), r.out());
        assertTrue(r.out().contains("STRIDED rank 3 {WRITE, @48KiB, 16KiB, STRIDE 64KiB x 16, 16 req"), r.out());
        // 1 MiB: the heads' start decides the Original's time, and the output says so in both phases
        for (String phase : List.of("read", "write")) {
            assertTrue(file.get(phase).get("notes").toString().contains("disk heads rest on the original's first byte"),
                    phase + ": " + file.get(phase).get("notes"));
        }
        assertTrue(r.out().contains("    note: a new engine's disk heads rest on the original's first byte"), r.out());
    }

    @Test
    void iorMpiioOnOpenMpiIsPredictedFromDxtPosixWithTheSameFiguresAsThePosixRun() throws IOException {
        JsonNode posix = file(whatIf(RuntimeLogs.get(RuntimeLogs.IOR_POSIX), 0), IOR_DIR + "ior-posix.dat");
        JsonNode root = whatIf(RuntimeLogs.get(RuntimeLogs.IOR_MPIIO), 0);
        JsonNode mpiio = file(root, IOR_DIR + "ior-mpiio.dat");
        assertEquals("DXT_POSIX", mpiio.get("dxtModule").asText(), "DXT_MPIIO has offset -1 throughout");
        assertTrue(mpiio.get("notes").toString().contains("DXT_MPIIO recorded no offsets for it"), mpiio.get("notes").toString());
        assertTrue(mpiio.get("notes").toString().contains("Open MPI"), mpiio.get("notes").toString());
        assertIorShape(mpiio);
        // independent MPI-IO without collective buffering issues the same POSIX requests: the same prediction
        for (Scheme s : Scheme.values()) {
            for (String phase : List.of("read", "write")) {
                assertEquals(scheme(posix, phase, s).get("seconds").asDouble(), scheme(mpiio, phase, s).get("seconds").asDouble(),
                        1e-12, s + " " + phase);
            }
        }
        // Open MPI's own shared-memory and IOR's lock-test files are in the log too; whatever they are, never an error
        List<String> names = new ArrayList<>();
        root.get("files").forEach(f -> names.add(f.get("file").asText()));
        assertTrue(names.stream().anyMatch(n -> n.startsWith("/tmp/ompi.")), names.toString());
        assertTrue(names.contains(IOR_DIR + "ior-mpiio.dat.locktest.0"), names.toString());
    }

    @Test
    void iorCollectiveMpiioIsPredictedFromTheAggregatorsRequestsAndSaysSo() throws IOException {
        JsonNode root = whatIf(RuntimeLogs.get(RuntimeLogs.IOR_MPIIO_COLLECTIVE), 0);
        JsonNode file = file(root, IOR_DIR + "ior-mpiio-coll.dat");
        assertEquals("DXT_POSIX", file.get("dxtModule").asText());
        assertTrue(file.get("notes").toString().contains("aggregators' requests under collective buffering"), file.get("notes").toString());
        // one aggregator (cb_nodes=1) moves each 4 x 16 KiB segment as one 64 KiB request
        long segment = (long) TASKS * BLOCK;
        assertEquals(1, file.get("ranksWithSegments").asInt());
        for (String phase : List.of("read", "write")) {
            JsonNode ph = file.get(phase);
            assertEquals(SEGMENTS, ph.get("requests").asLong(), phase);
            assertEquals(SEGMENTS * segment, ph.get("bytes").asLong(), phase);
            String kind = phase.equals("read") ? "READ" : "WRITE";
            assertTrue(ph.get("patterns").toString().contains("{" + kind + ", @0B, " + ByteSize.format(segment) + ", CONTIG "
                    + ByteSize.format(SEGMENTS * segment) + ", " + SEGMENTS + " req"), ph.get("patterns").toString());
            for (Scheme s : Scheme.values()) assertTrue(scheme(file, phase, s).get("seconds").asDouble() > 0, s + " " + phase);
        }
    }

    @Test
    void pythonsFourInterleavedWorkersAndItsSegmentedInputAreFoundAndItsMixedFilesTotalled() throws IOException {
        Path log = RuntimeLogs.get(RuntimeLogs.PYTHON);
        Path json = tmp.resolve("py.json");
        AnalyzeCommandTest.Run r = run(new WhatIfCommand(), log.toString(), "--file", "pdla-darshan-samples/py/", "--json", json.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertEquals(2, root.get("predictedFiles").asInt());

        JsonNode ckpt = file(root, IOR_DIR + "py/checkpoint.dat");
        for (String phase : List.of("read", "write")) {
            JsonNode ph = ckpt.get(phase);
            assertEquals(64, ph.get("requests").asLong());
            assertEquals(64L * 8192, ph.get("bytes").asLong());
            String kind = phase.equals("read") ? "READ" : "WRITE";
            for (int w = 0; w < 4; w++) {
                String expected = "{" + kind + ", @" + ByteSize.format(w * 8192L) + ", 8KiB, STRIDE 32KiB x 16, 16 req";
                assertTrue(ph.get("patterns").toString().contains(expected), "worker " + w + ": " + expected + " in " + ph.get("patterns"));
            }
        }
        // one replica for the rank's key, which holds its four workers' patterns: a quarter of the bytes
        assertTrue(ckpt.get("read").get("notes").toString().contains("the replicas hold 25% of these bytes (131072 of 524288)"),
                ckpt.get("read").get("notes").toString());
        JsonNode mixed = ckpt.get("readsAndWrites");
        assertEquals(1, mixed.get("readWriteSwitches").asLong(), "all writes, then all reads");
        assertEquals(64, mixed.get("readsAfterFirstWrite").asLong());
        assertTotals(ckpt, r.out());

        JsonNode input = file(root, IOR_DIR + "py/input.dat");
        assertEquals(48, input.get("read").get("requests").asLong(), "3 segments of 64 KiB in 4 KiB reads");
        assertTrue(input.get("read").get("patterns").toString().contains("{READ, @0B, 4KiB, STRIDE 128KiB x 3, 48 req"),
                input.get("read").get("patterns").toString());
        assertEquals(1, input.get("write").get("requests").asLong());
        assertEquals(384L << 10, input.get("write").get("bytes").asLong());
        assertTotals(input, r.out());
        assertTrue(r.out().contains("note: reads and writes are predicted as two phases"), r.out());
    }

    @Test
    void aRealLogWithoutDxtIsRefusedAndItsJsonSaysWhy() throws IOException {
        Path log = RuntimeLogs.get(RuntimeLogs.IOR_NO_DXT);
        Path json = tmp.resolve("no-dxt.json");
        AnalyzeCommandTest.Run r = run(new WhatIfCommand(), log.toString(), "--json", json.toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(log + " has no DXT trace") && r.err().contains("DXT_ENABLE_IO_TRACE=1"), r.err());
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertEquals(0, root.get("predictedFiles").asInt());
        assertTrue(root.get("error").asText().contains("has no DXT trace"), root.toString());
        assertEquals(TASKS, root.get("processes").asInt());
        JsonNode file = file(root, IOR_DIR + "ior-no-dxt.dat");
        assertFalse(file.get("predicted").asBoolean());
        assertTrue(file.get("missing").asText().startsWith("no DXT segments"), file.toString());
    }

    @Test
    void anUnreadableLogAndAFileFilterMatchingNothingAlsoWriteJsonSayingWhy() throws IOException {
        Path json = tmp.resolve("missing.json"), absent = tmp.resolve("absent.darshan");
        AnalyzeCommandTest.Run r = run(new WhatIfCommand(), absent.toString(), "--json", json.toString());
        assertEquals(2, r.code());
        assertEquals(absent + " does not exist or is not a file", new ObjectMapper().readTree(json.toFile()).get("error").asText());

        AnalyzeCommandTest.Run none = run(new WhatIfCommand(), RuntimeLogs.get(RuntimeLogs.IOR_POSIX).toString(), "--file", "no-such", "--json", json.toString());
        assertEquals(2, none.code());
        assertTrue(new ObjectMapper().readTree(json.toFile()).get("error").asText().contains("matches no file"));
    }

    @Test
    void aModuleThisReaderDoesNotKnowIsNamedAndTheRestPredictedAsBefore() throws IOException {
        byte[] bytes = RuntimeLogs.bytes(RuntimeLogs.IOR_POSIX);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int slot = 40, heatmap = ModuleId.HEATMAP.ordinal();
        b.putLong(48 + 16 * slot, b.getLong(48 + 16 * heatmap));
        b.putLong(48 + 16 * slot + 8, b.getLong(48 + 16 * heatmap + 8));
        b.putInt(1072 + 4 * slot, 1);
        Path log = Files.write(tmp.resolve("unknown-module.darshan"), bytes);
        Path json = tmp.resolve("unknown.json");
        AnalyzeCommandTest.Run r = run(new WhatIfCommand(), log.toString(), "--json", json.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("warning: " + log + ": module id 40 region skipped (module id 40 is unknown to this reader; skipped)"), r.err());
        JsonNode file = file(new ObjectMapper().readTree(json.toFile()), IOR_DIR + "ior-posix.dat");
        JsonNode real = file(whatIf(RuntimeLogs.get(RuntimeLogs.IOR_POSIX), 0), IOR_DIR + "ior-posix.dat");
        assertEquals(real.get("read").get("schemes"), file.get("read").get("schemes"));
    }

    @Test
    void aDxtModuleOfAnUnknownVersionIsNamedNotTakenForMissingDxt() throws IOException {
        byte[] bytes = RuntimeLogs.bytes(RuntimeLogs.IOR_POSIX);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(1072 + 4 * ModuleId.DXT_POSIX.ordinal(), 9);
        Path log = Files.write(tmp.resolve("dxt-v9.darshan"), bytes);
        AnalyzeCommandTest.Run r = run(new WhatIfCommand(), log.toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("DXT_POSIX region skipped (invalid DXT_POSIX module version number (got 9); skipped): its segments are not used"), r.err());
        assertTrue(r.err().contains("has DXT regions this reader cannot read"), r.err());
        assertFalse(r.err().contains("not traced with DXT"), r.err());
    }

    /** IOR's shape: per rank 16 KiB at a 64 KiB stride (rank r from r x 16 KiB), together one contiguous MiB. */
    private static void assertIorShape(JsonNode file) {
        long stride = (long) TASKS * BLOCK, total = (long) TASKS * SEGMENTS * BLOCK;
        for (String phase : List.of("read", "write")) {
            JsonNode ph = file.get(phase);
            String kind = phase.equals("read") ? "READ" : "WRITE";
            assertEquals(TASKS * SEGMENTS, ph.get("requests").asLong(), phase);
            assertEquals(total, ph.get("bytes").asLong(), phase);
            assertEquals(1.0, ph.get("requestCoverage").asDouble(), 1e-12, phase + ": the patterns explain every request");
            assertTrue(ph.get("patterns").toString().contains("{" + kind + ", @0B, " + ByteSize.format(BLOCK) + ", CONTIG "
                    + ByteSize.format(total) + ", " + TASKS * SEGMENTS + " req"), ph.get("patterns").toString());
            JsonNode ranks = ph.get("rankPatterns");
            assertEquals(TASKS, ranks.size(), ranks.toString());
            for (JsonNode l : ranks) {
                int rank = l.get("rank").asInt();
                assertEquals("STRIDED", l.get("kind").asText(), l.toString());
                assertTrue(l.get("notation").asText().startsWith("{" + kind + ", @" + ByteSize.format((long) rank * BLOCK) + ", "
                        + ByteSize.format(BLOCK) + ", STRIDE " + ByteSize.format(stride) + " x " + SEGMENTS + ", " + SEGMENTS + " req"), l.toString());
            }
            for (Scheme s : Scheme.values()) {
                double t = scheme(file, phase, s).get("seconds").asDouble();
                assertTrue(t > 0 && Double.isFinite(t), s + " " + phase + ": " + t);
            }
        }
    }

    /** The file's total per scheme is its read time plus its write time, and the text names the fastest total. */
    private static void assertTotals(JsonNode file, String text) {
        JsonNode totals = file.get("readsAndWrites").get("totalSeconds");
        double best = Double.POSITIVE_INFINITY;
        for (Scheme s : Scheme.values()) {
            double sum = scheme(file, "read", s).get("seconds").asDouble() + scheme(file, "write", s).get("seconds").asDouble();
            assertEquals(sum, totals.get(s.label()).asDouble(), sum * 1e-12, s.label());
            best = Math.min(best, sum);
        }
        List<String> fastest = new ArrayList<>();
        for (Scheme s : Scheme.values()) if (totals.get(s.label()).asDouble() == best) fastest.add(s.label());
        String line = best < totals.get("Original").asDouble()
                ? "fastest for the whole file (reads + writes): " + String.join(" and ", fastest) + ", "
                : "fastest for the whole file (reads + writes): Original, ";
        assertTrue(text.contains(line), line + " in " + text);
    }

    private JsonNode whatIf(Path log, int exit) throws IOException {
        Path json = Files.createTempFile(tmp, "what-if", ".json");
        AnalyzeCommandTest.Run r = run(new WhatIfCommand(), log.toString(), "--json", json.toString());
        assertEquals(exit, r.code(), r.out() + r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        return new ObjectMapper().readTree(json.toFile());
    }

    private static JsonNode file(JsonNode root, String name) {
        for (JsonNode f : root.get("files")) if (f.get("file").asText().equals(name)) return f;
        throw new AssertionError(name + " not among the files of " + root.get("log") + ": " + root.get("files"));
    }

    private static JsonNode scheme(JsonNode file, String phase, Scheme s) {
        return file.get(phase).get("schemes").get(s.label());
    }
}
