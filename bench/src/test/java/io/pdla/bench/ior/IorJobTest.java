package io.pdla.bench.ior;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdla.mpiio.launch.MpjJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.FileChannel;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** IorMain as real 2-rank MPJ jobs (multicore device), started through IorLauncher. */
class IorJobTest {
    private static final Pattern RATIO = Pattern.compile("shim/baseline ratio: write ([0-9.]+), read ([0-9.]+)");

    @TempDir
    Path dir;

    private MpjJob.Result ior(String... args) throws Exception {
        return IorLauncher.run(2, "multicore", List.of(args), false, 120);
    }

    @Test
    void tracedBackendWritesTracesAndReportsTheTracedRatio() throws Exception {
        Path traces = dir.resolve("traces");
        Path json = dir.resolve("traced.json");
        MpjJob.Result r = ior("-w", "-r", "-R", "-b", "64k", "-t", "16k", "-s", "2", "--no-baseline",
                "--trace", traces.toString(), "-o", dir.resolve("t").toString(), "--json", json.toString());
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        assertTrue(out.contains("mpiio-traced"), out);
        assertTrue(out.matches("(?s).*traced/untraced ratio: write [0-9.]+, read [0-9.]+.*"), out);
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertTrue(root.get("tracedWriteRatio").asDouble() > 0 && root.get("tracedReadRatio").asDouble() > 0, root.toString());
        // the traced backend's requests of both ranks: 2 segments x 4 transfers, written then read, per rank
        io.pdla.tracer.format.TraceDirectory td = io.pdla.tracer.format.TraceDirectory.open(traces);
        for (int rank = 0; rank < 2; rank++) {
            try (var s = td.records(rank)) {
                long data = s.filter(t -> t.op().movesData()).count();
                assertTrue(data >= 16, "rank " + rank + " traced " + data + " data requests");
            }
        }
    }

    @Test
    void writeReadVerifyWithBaselineAndJson() throws Exception {
        Path json = dir.resolve("out.json");
        String file = dir.resolve("shared").toString();
        MpjJob.Result r = ior("-w", "-r", "-R", "-i", "2", "-b", "64k", "-t", "16k", "-s", "4", "-o", file,
                "--json", json.toString());
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        assertTrue(out.lines().anyMatch(l -> l.matches("Max Write: [0-9.]+ MiB/sec \\([0-9.]+ MB/sec\\)")), out);
        assertTrue(out.lines().anyMatch(l -> l.matches("Max Read: [0-9.]+ MiB/sec \\([0-9.]+ MB/sec\\)")), out);
        Matcher m = RATIO.matcher(out);
        assertTrue(m.find(), out);
        assertTrue(Double.parseDouble(m.group(1)) > 0 && Double.parseDouble(m.group(2)) > 0, m.group());
        // 2 backends x 2 iterations x 2 ranks x 4 segments x 4 transfers
        assertTrue(out.contains("verify: passed, 128 transfers checked"), out);
        assertTrue(out.contains("shim/baseline ratio without open/close: write "), out);
        assertFalse(Files.exists(Path.of(file)), "file removed without -k");

        JsonNode root = new ObjectMapper().readTree(json.toFile());
        for (String key : List.of("writeRatio", "readRatio", "writeRatioOfMax", "readRatioOfMax", "writeTransferRatio", "readTransferRatio")) {
            assertTrue(root.get(key).isNumber() && root.get(key).asDouble() > 0, key + " in " + root);
        }
        assertEquals(Double.parseDouble(m.group(1)), root.get("writeRatio").asDouble(), 0.0006);
        JsonNode points = root.get("points");
        assertEquals(8, points.size(), "2 backends x write/read x 2 iterations");
        for (JsonNode p : points) {
            assertEquals(2L * 4 * 64 * 1024, p.get("bytes").asLong(), p.toString());
            assertEquals(2 * 4 * 4, p.get("ops").asInt());
            double secs = p.get("seconds").asDouble();
            assertTrue(secs > 0);
            for (String part : List.of("openSeconds", "transferSeconds", "closeSeconds")) {
                assertTrue(p.get(part).asDouble() >= 0 && p.get(part).asDouble() <= secs, part + " within the phase: " + p);
            }
            double expected = p.get("bytes").asDouble() / p.get("seconds").asDouble() / (1 << 20);
            assertEquals(expected, p.get("mibPerSec").asDouble(), expected * 1e-9);
        }
        assertEquals(4, root.get("summaries").size());
        assertEquals(0, root.get("verification").get("badTransfers").asLong());
        assertEquals(128, root.get("verification").get("transfersChecked").asLong());
        assertEquals(2, root.get("run").get("tasks").asInt());
    }

    @Test
    void collectiveWithReorderAndFilePerProcessWithReorderVerify() throws Exception {
        MpjJob.Result c = ior("-c", "-C", "-R", "-e", "-b", "32k", "-t", "8k", "-s", "3", "-o", dir.resolve("coll").toString());
        assertEquals(0, c.exitCode(), c.output());
        assertTrue(c.output().contains("collective writeAtAll/readAtAll"), c.output());
        // with -c the shim's independent calls run too, as the collective calls' yardstick: 3 backends x 24 transfers
        assertTrue(c.output().contains("verify: passed, 72 transfers checked"), c.output());
        assertTrue(c.output().contains("collective/independent ratio: write "), c.output());

        MpjJob.Result f = ior("-F", "-C", "-R", "-k", "-b", "32k", "-t", "8k", "-s", "3", "-o", dir.resolve("fpp").toString());
        assertEquals(0, f.exitCode(), f.output());
        assertTrue(f.output().contains("verify: passed, 48 transfers checked"), f.output());
        for (int r = 0; r < 2; r++) {
            Path p = dir.resolve(String.format("fpp.%08d", r));
            assertEquals(3L * 32 * 1024, Files.size(p), "file of rank " + r + " kept with -k");
        }
    }

    @Test
    void fileViewWritesWhereTheOffsetsWriteAndReadsBackWhatTheyWrote() throws Exception {
        // written through the view, read back through explicit offsets (shim and FileChannel): a view that
        // put a transfer elsewhere fails the check even when reading through the same view would agree
        String viewed = dir.resolve("viewed").toString();
        MpjJob.Result w = ior("-V", "-c", "-w", "-k", "-e", "-b", "32k", "-t", "8k", "-s", "3", "--no-baseline", "-o", viewed);
        assertEquals(0, w.exitCode(), w.output());
        assertTrue(w.output().contains("collective writeAll/readAll through a file view"), w.output());
        assertEquals(3L * 2 * 32 * 1024, Files.size(Path.of(viewed)));
        MpjJob.Result r = ior("-r", "-R", "-k", "-b", "32k", "-t", "8k", "-s", "3", "-o", viewed);
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("verify: passed, 48 transfers checked"), r.output());

        // and the other way round, reading another rank's data (-C) through the view, collectively and not
        String plain = dir.resolve("plain").toString();
        MpjJob.Result p = ior("-w", "-k", "-b", "32k", "-t", "8k", "-s", "3", "--no-baseline", "-o", plain);
        assertEquals(0, p.exitCode(), p.output());
        MpjJob.Result v = ior("-V", "-c", "-C", "-r", "-R", "-k", "-b", "32k", "-t", "8k", "-s", "3", "-o", plain);
        assertEquals(0, v.exitCode(), v.output());
        assertTrue(v.output().contains("verify: passed, 72 transfers checked"), v.output());
    }

    @Test
    void verifyDetectsCorruptionAndExitsNonZero() throws Exception {
        String file = dir.resolve("victim").toString();
        MpjJob.Result w = ior("-w", "-k", "-b", "64k", "-t", "16k", "-s", "2", "-o", file);
        assertEquals(0, w.exitCode(), w.output());
        assertEquals(2L * 2 * 64 * 1024, Files.size(Path.of(file)));

        long corrupt = 64 * 1024 + 16 * 1024 + 100; // rank 1's second transfer of segment 0
        try (FileChannel ch = FileChannel.open(Path.of(file), StandardOpenOption.WRITE, StandardOpenOption.READ)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            ch.read(one, corrupt);
            one.put(0, (byte) ~one.get(0)).rewind();
            ch.write(one, corrupt);
        }
        MpjJob.Result r = ior("-r", "-R", "-k", "-b", "64k", "-t", "16k", "-s", "2", "-o", file);
        String out = r.output();
        assertEquals(IorMain.EXIT_VERIFY_FAILED, r.exitCode(), out);
        assertTrue(out.contains("differs at file offset " + corrupt), out);
        List<String> failing = new ArrayList<>();
        out.lines().filter(l -> l.startsWith("ERROR: verify: rank 1")).forEach(failing::add);
        assertEquals(2, failing.size(), "the shim and the baseline both see it:\n" + out);
        assertTrue(out.contains("verify: FAILED, 2 of 32 transfers differ"), out);
        assertFalse(out.lines().anyMatch(l -> l.startsWith("ERROR: verify: rank 0")), out);
    }

    @Test
    void readingAMissingFileIsAnErrorNamingTheFile() throws Exception {
        String file = dir.resolve("absent").toString();
        MpjJob.Result r = ior("-r", "-b", "16k", "-t", "16k", "-o", file);
        assertEquals(IorMain.EXIT_IO_ERROR, r.exitCode(), r.output());
        assertTrue(r.output().contains("absent"), r.output());
        assertTrue(r.output().contains("Finished: FAILED"), r.output());
    }

    @Test
    void badOptionsFailBeforeAJobStarts() {
        IorOptions.BadOptionException e = assertThrows(IorOptions.BadOptionException.class,
                () -> IorLauncher.run(2, "multicore", List.of("-b", "16q"), false));
        assertTrue(e.getMessage().contains("'-b'"), e.getMessage());
        assertNotNull(e.getMessage());
    }
}
