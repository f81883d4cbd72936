package io.pdla.cli;

import static io.pdla.cli.AnalyzeCommandTest.run;
import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdla.bench.schemes.Scheme;
import io.pdla.bench.schemes.SchemeComparison;
import io.pdla.bench.schemes.SchemeWorkloads;
import io.pdla.darshan.Compression;
import io.pdla.darshan.DarshanJob;
import io.pdla.darshan.DarshanWriter;
import io.pdla.darshan.DxtRecord;
import io.pdla.darshan.ModuleId;
import io.pdla.darshan.Mount;
import io.pdla.darshan.WrittenLogs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code pdla what-if} on Darshan logs written by pdla's own {@link DarshanWriter}: a strided application's log gives
 * the strided pattern and the very figures {@code pdla bench matrix}'s comparison gives for the same generated
 * workload; logs that lack what a prediction needs (no DXT, truncated, a file without segments, partial DXT) say so.
 */
class WhatIfCommandTest {
    private static final String SHARED = "/scratch/ior/shared.dat";
    /** The matrix's quick point with fewer requests: 8 ranks, 256 KiB requests, stride 512 KiB, 16 per rank. */
    private static final SchemeComparison.WorkloadSpec STRIDED = SchemeWorkloads.iorFixedStride(8, 256 << 10, 512 << 10, 16);
    private static SchemeComparison.Table matrix;

    @TempDir
    Path tmp;

    @BeforeAll
    static void benchMatrixOnTheSameWorkload() {
        matrix = new SchemeComparison(SchemeComparison.Settings.defaults()).compare(STRIDED);
    }

    @Test
    void aStridedRunsLogShowsTheStridedPatternAndTheTimesBenchMatrixPredicts() throws IOException {
        Path log = keptStridedLog();
        Path json = tmp.resolve("what-if.json");
        AnalyzeCommandTest.Run r = run(new WhatIfCommand(), log.toString(), "--json", json.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("file " + SHARED + " (DXT_MPIIO segments of 8 ranks)"), r.out());
        assertTrue(r.out().contains("STRIDED global[8 ranks 0..7] {READ, @0B, 256KiB, STRIDE 512KiB"), r.out());
        assertTrue(r.out().contains("STRIDED global[8 ranks 0..7] {WRITE, @0B, 256KiB, STRIDE 512KiB"), r.out());

        JsonNode file = new ObjectMapper().readTree(json.toFile()).get("files").get(0);
        assertEquals(SHARED, file.get("file").asText());
        assertTrue(file.get("predicted").asBoolean());
        assertEquals(8 * 16, file.get("read").get("requests").asLong());
        assertEquals(8 * 16 * (256L << 10), file.get("write").get("bytes").asLong());
        assertEquals(1.0, file.get("read").get("requestCoverage").asDouble(), 1e-12, "the strided pattern explains every read");
        for (Scheme s : Scheme.values()) {
            SchemeComparison.Row expected = matrix.row(s);
            JsonNode read = file.get("read").get("schemes").get(s.label()), write = file.get("write").get("schemes").get(s.label());
            assertEquals(expected.readSeconds(), read.get("seconds").asDouble(), expected.readSeconds() * 1e-9, s + " read time as bench matrix");
            assertEquals(expected.writeSeconds(), write.get("seconds").asDouble(), expected.writeSeconds() * 1e-9, s + " write time as bench matrix");
        }
        double original = file.get("read").get("schemes").get("Original").get("seconds").asDouble();
        JsonNode sPdla = file.get("read").get("schemes").get("S-PDLA");
        assertTrue(sPdla.get("seconds").asDouble() < original / 1.5,
                "S-PDLA's replica on SSD reads the strided pattern faster than the original layout: " + sPdla + " vs " + original);
        assertTrue(sPdla.get("layout").asText().contains("ssd"), sPdla.toString());
        assertTrue(file.get("read").get("schemes").get("Original").get("layout").asText().startsWith("original 1-DH 64k hdd"));
        double fastest = Arrays.stream(Scheme.values()).mapToDouble(s -> matrix.row(s).readSeconds()).min().orElseThrow();
        String best = String.join(" and ", Arrays.stream(Scheme.values()).filter(s -> matrix.row(s).readSeconds() == fastest).map(Scheme::label).toList());
        assertTrue(r.out().contains("fastest for reads: " + best + ", "), best + " in " + r.out());
    }

    @Test
    void aLogWithoutDxtIsAClearErrorAndExit2() throws IOException {
        Path log = WrittenLogs.get("pdla-written-counters-only.darshan");
        AnalyzeCommandTest.Run r = run(new WhatIfCommand(), log.toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(log + " has no DXT trace") && r.err().contains("DXT_ENABLE_IO_TRACE=1"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void aLogTruncatedInItsDxtRegionsIsAClearErrorAndExit2() throws IOException {
        byte[] whole = stridedLog();
        long dxtPosixStart = ByteBuffer.wrap(whole).order(ByteOrder.LITTLE_ENDIAN).getLong(48 + 16 * ModuleId.DXT_POSIX.ordinal());
        Path log = Files.write(tmp.resolve("cut.darshan"), Arrays.copyOf(whole, (int) dxtPosixStart + 100));
        AnalyzeCommandTest.Run r = run(new WhatIfCommand(), log.toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(log + " is truncated or damaged in its DXT region(s)"), r.err());
        assertTrue(r.err().contains("DXT_POSIX region stops short"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void aLogCutInItsLastRegionIsPredictedFromTheIntactDxtPosixAndSaysSo() throws IOException {
        byte[] whole = stridedLog();
        Path log = Files.write(tmp.resolve("cut-end.darshan"), Arrays.copyOf(whole, whole.length - 40));
        AnalyzeCommandTest.Run r = run(new WhatIfCommand(), log.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("warning: " + log + ": DXT_MPIIO region stops short"), r.err());
        assertTrue(r.out().contains("file " + SHARED + " (DXT_POSIX segments of 8 ranks)"), r.out());
        assertTrue(r.out().contains("note: DXT_MPIIO is damaged"), r.out());
    }

    @Test
    void aPartialDxtModuleMarksItsFilesIncomplete() throws IOException {
        byte[] log = stridedLog();
        ByteBuffer b = ByteBuffer.wrap(log).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(24, b.getLong(24) | 1L << ModuleId.DXT_MPIIO.ordinal());
        Path p = Files.write(tmp.resolve("partial.darshan"), log);
        AnalyzeCommandTest.Run r = run(new WhatIfCommand(), p.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("note: INCOMPLETE: DXT_MPIIO ran out of trace memory"), r.out());
    }

    @Test
    void aFileWithoutDxtSegmentsIsNamedWithWhatIsMissingAndFileSelectsFiles() throws IOException {
        Path log = WrittenLogs.get("pdla-written-3.41-bzip2.darshan");
        AnalyzeCommandTest.Run all = run(new WhatIfCommand(), log.toString());
        assertEquals(0, all.code(), all.out() + all.err());
        assertTrue(all.out().contains("file /scratch/run1/ckpt.dat (DXT_MPIIO segments of 4 ranks)"), all.out());
        assertTrue(all.out().contains("NOT PREDICTED (2 files): no DXT segments: Darshan counted it (POSIX/MPI-IO) but DXT traced no "
                + "read or write of it"), all.out());
        assertTrue(all.out().contains("\n  /scratch/run1/input.dat\n") && all.out().contains("\n  /scratch/run1/rank0.log\n"), all.out());

        AnalyzeCommandTest.Run input = run(new WhatIfCommand(), log.toString(), "--file", "input\\.dat$");
        assertEquals(2, input.code(), input.out() + input.err());
        assertFalse(input.out().contains("ckpt.dat"), input.out());
        assertTrue(input.err().contains("nothing could be predicted"), input.err());

        AnalyzeCommandTest.Run none = run(new WhatIfCommand(), log.toString(), "--file", "no-such-file");
        assertEquals(2, none.code());
        assertTrue(none.err().contains("matches no file") && none.err().contains("/scratch/run1/rank0.log"), none.err());
    }

    @Test
    void serverCountsAreCheckedAndChangeThePrediction() throws IOException {
        Path log = Files.write(tmp.resolve("ior.darshan"), stridedLog());
        AnalyzeCommandTest.Run bad = run(new WhatIfCommand(), log.toString(), "--sservers", "0");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("--sservers must be at least 1"), bad.err());
        Path json = tmp.resolve("two.json");
        AnalyzeCommandTest.Run two = run(new WhatIfCommand(), log.toString(), "--hservers", "2", "--json", json.toString());
        assertEquals(0, two.code(), two.err());
        JsonNode f = new ObjectMapper().readTree(json.toFile());
        assertEquals(2, f.get("simPfs").get("hservers").asInt());
        double original = f.get("files").get(0).get("read").get("schemes").get("Original").get("seconds").asDouble();
        assertTrue(original > matrix.row(Scheme.ORIGINAL).readSeconds() * 1.5,
                "2 HServers read the original slower than 8: " + original + " vs " + matrix.row(Scheme.ORIGINAL).readSeconds());
    }

    @Test
    void segmentsOfARankBeyondTheJobsSizeAreReportedNotReplayed() throws IOException {
        long id = 0x10a0000000000002L;
        long[] off = {0, 1 << 20, 2 << 20}, len = {4096, 4096, 4096};
        double[] start = {1, 2, 3}, end = {1.5, 2.5, 3.5};
        DxtRecord beyond = new DxtRecord(id, 5, "node0", 0, 3, off, len, start, end, new long[3]);
        DarshanJob job = new DarshanJob(1000, 1_700_200_000L, 0, 1_700_200_060L, 0, 2, 78, "lib_ver=pdla\n", "./app",
                List.of(new Mount("/", "ext4")));
        Path log = Files.write(tmp.resolve("rank5.darshan"), DarshanWriter.write(new DarshanWriter.Content(job, Map.of(id, "/data/in.dat"),
                List.of(), List.of(), List.of(beyond), List.of()), Compression.NONE));
        AnalyzeCommandTest.Run r = run(new WhatIfCommand(), log.toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("NOT PREDICTED (1 file): its segments could not be replayed: DXT_POSIX has segments of rank 5 "
                + "but the log's job had 2 processes"), r.out());
        assertTrue(r.out().contains("\n  /data/in.dat\n"), r.out());
        assertTrue(r.err().contains("nothing could be predicted") && r.err().contains(log.toString()), r.err());
    }

    static List<Path> writtenLogs() throws IOException {
        return WrittenLogs.all();
    }

    @ParameterizedTest
    @MethodSource("writtenLogs")
    void everyWrittenLogIsPredictedOrRefusedWithAReason(Path log) {
        AnalyzeCommandTest.Run r = run(new WhatIfCommand(), log.toString());
        assertTrue(r.code() == 0 || r.code() == 2, r.code() + r.err());
        if (r.code() == 2) assertTrue(r.err().contains("pdla what-if: "), r.err());
        else assertTrue(r.out().contains("fastest for "), r.out());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    /**
     * The strided log, also kept as {@code target/what-if-logs/what-if-ior-strided.darshan} (bench/RESULTS-online.md
     * runs what-if on it); written whole or not at all, as {@link WrittenLogs} writes. Not among the written logs: tests
     * that read that whole folder (DarshanCommandsTest's scan) count only those.
     */
    static Path keptStridedLog() throws IOException {
        Path dir = WrittenLogs.dir().resolveSibling("what-if-logs"), p = dir.resolve("what-if-ior-strided.darshan");
        Files.createDirectories(dir);
        Path t = Files.createTempFile(dir, "what-if-ior-strided", ".tmp");
        Files.write(t, stridedLog());
        Files.move(t, p, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return p;
    }

    /** The strided workload as an application's Darshan log (uncompressed, so a test can cut it inside a region). */
    static byte[] stridedLog() {
        return IorDarshanLogs.log(SHARED, STRIDED, 8, "./ior -a MPIIO -t 256k -s 16", Compression.NONE);
    }
}
