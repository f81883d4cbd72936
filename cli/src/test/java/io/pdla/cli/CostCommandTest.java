package io.pdla.cli;

import io.pdla.storage.Layout.Distribution;
import io.pdla.costmodel.LayoutChoice;
import io.pdla.costmodel.LayoutCostModel;
import io.pdla.costmodel.ModelParameters;
import io.pdla.costmodel.Op;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CostCommandTest {

    private record Run(int exitCode, String out, String err) {
        List<String> lines() {
            return Arrays.asList(out.strip().split("\\R"));
        }

        String lastLine() {
            List<String> l = lines();
            return l.get(l.size() - 1);
        }
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = new CommandLine(new CostCommand());
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        int code = cmd.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void printsEveryLayoutAndEndsWithTheCheapest() {
        Run r = run("--procs", "4", "--servers", "8", "--size", "1m");
        assertEquals(0, r.exitCode(), r.err());
        // 1-DH, 1-DV and the 2-D group counts 2 and 4 of n = 8
        for (String layout : List.of("1-DH", "1-DV", "2-D (g=2)", "2-D (g=4)")) {
            assertTrue(r.out().contains("HServers           " + layout), r.out());
        }
        LayoutChoice expected = LayoutCostModel.hdd(ModelParameters.defaults(), 8).best(4, 1, 1 << 20, Op.READ);
        assertEquals("choice: " + expected.describe(), r.lastLine());
        assertEquals(1, r.lines().stream().filter(l -> l.startsWith("choice:")).count());
    }

    @Test
    void theChoiceLineIsTheMinimumOfThePrintedTotals() {
        Run r = run("--procs", "64", "--servers", "8", "--size", "16k", "--clients-per-node", "8");
        assertEquals(0, r.exitCode(), r.err());
        Pattern row = Pattern.compile("^HServers\\s+(\\S+(?: \\(g=\\d+\\))?)\\s+\\S+\\s+\\S+\\s+(\\S+)$");
        String cheapest = null;
        double min = Double.POSITIVE_INFINITY;
        for (String line : r.lines()) {
            Matcher m = row.matcher(line);
            if (m.matches() && Double.parseDouble(m.group(2)) < min) {
                min = Double.parseDouble(m.group(2));
                cheapest = m.group(1);
            }
        }
        assertEquals("choice: " + cheapest, r.lastLine());
    }

    @Test
    void guidelineCornersComeOutAsPublished() {
        assertEquals("choice: 1-DV", run("--procs", "64", "--servers", "8", "--size", "16k").lastLine());
        assertEquals("choice: 1-DH", run("--procs", "1", "--servers", "8", "--size", "64m").lastLine());
        assertTrue(run("--procs", "4", "--servers", "16", "--size", "256k").lastLine().startsWith("choice: 2-D (g="));
    }

    @Test
    void withSsdServersSmallRequestsGoToSServers() {
        Run r = run("--procs", "32", "--servers", "8", "--ssd-servers", "4", "--size", "16k", "--op", "write");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("SServers           1-DV"), r.out());
        assertTrue(r.out().contains("HServers+SServers"), r.out());
        assertTrue(r.out().contains("space: SServers"), r.out());
        LayoutChoice ssdBest = LayoutCostModel.ssd(ModelParameters.defaults(), 4).best(32, 1, 16384, Op.WRITE);
        assertEquals("choice: " + ssdBest.describe(), r.lastLine());
    }

    @Test
    void hugeRequestsWithManyHServersGoToTheHybridSpaceIn1DH() {
        Run r = run("--procs", "64", "--servers", "8", "--ssd-servers", "4", "--size", "64m",
                "--clients-per-node", "8");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("space: HServers+SServers"), r.out());
        assertEquals("choice: " + Distribution.ONE_DH.label(), r.lastLine());
    }

    @Test
    void badArgumentsExitWithUsageErrorNamingTheValue() {
        Run missing = run("--servers", "8", "--size", "4k");
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().contains("--procs"), missing.err());

        Run zero = run("--procs", "0", "--servers", "8", "--size", "4k");
        assertEquals(2, zero.exitCode());
        assertTrue(zero.err().contains("(p)") && zero.err().contains("0"), zero.err());

        Run badSize = run("--procs", "4", "--servers", "8", "--size", "4q");
        assertEquals(2, badSize.exitCode());
        assertTrue(badSize.err().contains("4q"), badSize.err());

        Run badOp = run("--procs", "4", "--servers", "8", "--size", "4k", "--op", "append");
        assertEquals(2, badOp.exitCode());
        assertTrue(badOp.err().contains("append"), badOp.err());
    }

    @Test
    void calibrateAgainstAnUnknownSchemeNamesTheSchemeAndFails() {
        Run r = run("calibrate", "--uri", "sim://local/x");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("unknown URI scheme 'sim'"), r.err());
    }

    @Test
    void calibrateAgainstAPosixFileFitsTheProbedPairAndCleansUp(@TempDir Path dir) throws Exception {
        Path scratch = dir.resolve("probe.dat");
        Run r = run("calibrate", "--uri", scratch.toString(), "--device", "ssd");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("ssd-read") && r.out().contains("ssd-write"), r.out());
        assertTrue(r.out().contains("fitted:"), r.out());
        assertTrue(!r.out().contains("\nhdd "), "only the probed pairs are fitted");
        assertTrue(!Files.exists(scratch), "the scratch file is deleted");
    }

    @Test
    void syntheticCalibrationPrintsTheFitAndCanBeFedBack(@TempDir Path dir) throws Exception {
        Path saved = dir.resolve("fit.properties");
        Run r = run("calibrate", "--synthetic", "--noise", "0.02", "--seed", "5", "--residuals",
                "--save", saved.toString());
        assertEquals(0, r.exitCode(), r.err());
        for (String target : List.of("network", "hdd", "ssd-read", "ssd-write")) {
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith(target + " ")), r.out());
        }
        assertTrue(r.out().contains("residual_s"), r.out());
        assertTrue(Files.exists(saved));
        // the fitted file drives the cost command
        Run withFit = run("--procs", "64", "--servers", "8", "--size", "16k", "--params", saved.toString());
        assertEquals(0, withFit.exitCode(), withFit.err());
        assertEquals("choice: 1-DV", withFit.lastLine());
    }

    @Test
    void calibrateNeedsASource() {
        assertEquals(2, run("calibrate").exitCode());
        assertEquals(2, run("calibrate", "--synthetic", "--uri", "x://y").exitCode());
    }
}
