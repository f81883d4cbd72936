package io.pdla.cli;

import static io.pdla.cli.AnalyzeCommandTest.run;
import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import io.pdla.darshan.ExternalLogs;
import io.pdla.darshan.WrittenLogs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * pdla darshan parse, pdla why and pdla analyze on every sample log (darshan's {@link WrittenLogs}), and on the optional
 * corpus of real runtime logs ({@link ExternalLogs}) when it is named, with pdla what-if (whose own cases are in
 * {@link WhatIfCommandTest}).
 */
class DarshanCommandsTest {
    @TempDir
    Path tmp;

    static List<Path> logs() throws IOException {
        return WrittenLogs.all();
    }

    private static boolean partial(Path p) {
        // pdla-written-partial-dxt's partial bit is on a DXT module, which darshan-parser does not print
        return p.getFileName().toString().equals("pdla-written-partial-posix.darshan");
    }

    @ParameterizedTest
    @MethodSource("logs")
    void parsePrintsEveryLogAndRefusesIncompleteOnesWithoutTheOption(Path log) {
        AnalyzeCommandTest.Run r = run(new DarshanCommand(), "parse", log.toString(), "--total", "--perf", "--file-list");
        if (partial(log)) {
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("--show-incomplete"), r.err());
            r = run(new DarshanCommand(), "parse", log.toString(), "--show-incomplete");
        }
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("# darshan log version: 3."), r.out());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @ParameterizedTest
    @MethodSource("logs")
    void dxtPrintsEveryLogsTracesAndRefusesAPartialDxtModuleWithoutTheOption(Path log) throws IOException {
        String name = log.getFileName().toString();
        AnalyzeCommandTest.Run r = run(new DarshanCommand(), "dxt", log.toString());
        if (name.equals("pdla-written-partial-dxt.darshan")) {
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("The DXT_POSIX module contains incomplete data") && r.err().contains("--show-incomplete"), r.err());
            r = run(new DarshanCommand(), "dxt", "--show-incomplete", log.toString());
        }
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("# darshan log version: 3.") || r.out().startsWith("# WARNING"), r.out());
        io.pdla.darshan.DarshanLog read = new io.pdla.darshan.DarshanReader().read(log);
        long segments = Stream.of(io.pdla.darshan.ModuleId.DXT_POSIX, io.pdla.darshan.ModuleId.DXT_MPIIO)
                .map(read::module).filter(m -> m != null)
                .flatMap(m -> m.recordsOf(io.pdla.darshan.DxtRecord.class).stream())
                .mapToLong(io.pdla.darshan.DxtRecord::segmentCount).sum();
        long printed = r.out().lines().filter(l -> l.startsWith(" X_POSIX") || l.startsWith(" X_MPIIO")).count();
        assertEquals(segments, printed, name + ": one line per DXT segment");
        if (segments == 0) {
            assertTrue(r.out().contains("# no DXT module data available for this Darshan log.")
                    || r.out().contains("# DXT, file_id:"), r.out());
        }
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void dxtOfADamagedLogIsExit2WithTheReasonAndNoStackTrace() throws IOException {
        Path good = WrittenLogs.get("pdla-written-3.41-bzip2.darshan");
        byte[] b = Files.readAllBytes(good);
        Path bad = Files.write(tmp.resolve("cut.darshan"), java.util.Arrays.copyOf(b, b.length - 40));
        AnalyzeCommandTest.Run r = run(new DarshanCommand(), "dxt", bad.toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("cut.darshan"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        AnalyzeCommandTest.Run missing = run(new DarshanCommand(), "dxt", tmp.resolve("none.darshan").toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("does not exist"), missing.err());
    }

    @ParameterizedTest
    @MethodSource("logs")
    void whyReportsTheCriticalPathOrSaysThereWasNoFileIo(Path log) {
        AnalyzeCommandTest.Run r = run(new WhyCommand(Optional.empty()), log.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("I/O mode: "), r.out());
        if (!log.getFileName().toString().equals("pdla-written-empty.darshan")) {
            assertTrue(r.out().contains("critical files: "), r.out());
        }
    }

    @ParameterizedTest
    @MethodSource("logs")
    void analyzeQueuesDxtPatternsOrSaysDxtIsNeeded(Path log) {
        Path db = tmp.resolve("db");
        AnalyzeCommandTest.Run r = run(new AnalyzeCommand(Optional.empty()), log.toString(), "--db", db.toString());
        assertEquals(0, r.code(), r.err());
        if (r.out().contains("has no DXT trace")) {
            assertTrue(r.out().contains("# darshan log version"), "counter summary follows: " + r.out());
        } else {
            assertTrue(r.out().contains("DXT source: DXT_"), r.out());
            assertTrue(r.out().matches("(?s).*stored \\d+ new or changed pattern entries.*"), r.out());
        }
    }

    @Test
    void aDamagedLogIsExit2WithRegionAndOffsetAndNoStackTrace() throws IOException {
        Path good = WrittenLogs.get("pdla-written-3.41-bzip2.darshan");
        byte[] b = Files.readAllBytes(good);
        Path bad = Files.write(tmp.resolve("cut.darshan"), java.util.Arrays.copyOf(b, 1400));
        AnalyzeCommandTest.Run r = run(new DarshanCommand(), "parse", bad.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("region: ") && r.err().contains("file offset"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        AnalyzeCommandTest.Run shown = run(new DarshanCommand(), "parse", bad.toString(), "--show-incomplete");
        assertTrue(shown.out().contains("# darshan log version: 3.41") || shown.code() == 2, shown.out() + shown.err());
    }

    @Test
    void scanReadsTheWholeSampleDirectory() throws IOException {
        Path dir = logs().get(0).getParent();
        AnalyzeCommandTest.Run r = run(new DarshanCommand(), "scan", dir.toString(), "--no-progress");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("logs: " + logs().size() + ", readable: " + logs().size() + ", damaged: 0"), r.out());
    }

    @Test
    void theOptionalCorpusOfRealLogsParsesAndExplains() throws IOException {
        for (Path log : ExternalLogs.assumeAll()) {
            AnalyzeCommandTest.Run p = run(new DarshanCommand(), "parse", log.toString(), "--show-incomplete");
            assertEquals(0, p.code(), log + ": " + p.err());
            assertTrue(p.out().contains("# darshan log version: 3."), log + ": " + p.out());
            AnalyzeCommandTest.Run d = run(new DarshanCommand(), "dxt", "--show-incomplete", log.toString());
            assertEquals(0, d.code(), log + ": " + d.err());
            AnalyzeCommandTest.Run w = run(new WhyCommand(Optional.empty()), log.toString());
            assertEquals(0, w.code(), log + ": " + w.err());
            assertTrue(w.out().contains("I/O mode: "), log + ": " + w.out());
        }
    }

    @Test
    void whatIfOnTheOptionalCorpusPredictsOrSaysWhatTheLogLacks() throws IOException {
        for (Path log : ExternalLogs.assumeAll()) {
            AnalyzeCommandTest.Run r = run(new WhatIfCommand(), log.toString());
            assertTrue(r.code() == 0 || r.code() == 2, log + ": exit " + r.code() + ": " + r.err());
            if (r.code() == 0) assertTrue(r.out().contains("fastest for "), log + ": " + r.out());
            else assertTrue(r.err().contains("pdla what-if: ") && r.err().contains(log.toString()), log + ": " + r.err());
            assertFalse(r.err().contains("\tat "), log + ": " + r.err());
        }
    }

    @Test
    void benchDarshanParseMeasuresReadAndInflateInOneRun() {
        AnalyzeCommandTest.Run r = run(new BenchCommand(), "darshan-parse", "--files", "200", "--segments", "20000", "--seconds", "0.2");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().matches("(?s).*read \\(inflate \\+ decode records\\): [0-9.]+ MB/s.*read / inflate-only: [0-9.]+.*"), r.out());
    }
}
