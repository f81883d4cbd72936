package io.pdla.darshan;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.ZoneId;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Byte-for-byte comparison with darshan-util's own darshan-dxt-parser (3.5.0, built from source): the expected texts
 * under {@code expected/darshan-dxt-parser} are its output on the sample logs (how they were made: the README there).
 */
class DxtParserOutputTest {
    private static final String DIR = "/expected/darshan-dxt-parser/";

    static List<Path> logs() throws IOException { return SampleLogs.all(); }

    @ParameterizedTest
    @MethodSource("logs")
    void printsExactlyWhatDarshanDxtParserPrints(Path log) throws Exception {
        String name = log.getFileName().toString().replace(".darshan", "");
        StringBuilder out = new StringBuilder(), err = new StringBuilder();
        boolean refused = false;
        try {
            assertTrue(new DxtReport(out, err, ZoneId.of("UTC")).print(new DarshanReader().read(log), false),
                    name + ": a DXT region reported as damaged");
        } catch (ParserReport.IncompleteLogException e) {
            refused = true;
        }
        // darshan-dxt-parser refuses exactly the log whose DXT module is partial, and says why on stderr
        assertEquals(name.equals("pdla-written-partial-dxt"), refused, name + ": refused without --show-incomplete");
        if (refused) assertEquals(ExpectedTexts.text(DIR + "pdla-written-partial-dxt.stderr.txt"), err.toString());
        else assertEquals("", err.toString(), name + ": nothing on stderr");
        String digest = digestOf(name, "default");
        if (digest != null) {
            assertEquals(digest, sha256(out), name + ": output digest");
            return;
        }
        ExpectedTexts.assertSameText(name, "darshan-dxt-parser", ExpectedTexts.gzipped(DIR + name + ".txt.gz"), out.toString());
    }

    @Test
    void showIncompletePrintsThePartialModulesSegmentsAsDarshanDxtParserDoes() throws Exception {
        StringBuilder out = new StringBuilder();
        assertTrue(new DxtReport(out, new StringBuilder(), ZoneId.of("UTC"))
                .print(new DarshanReader().read(SampleLogs.get("pdla-written-partial-dxt.darshan")), true));
        assertEquals(digestOf("pdla-written-partial-dxt", "--show-incomplete"), sha256(out));
        assertTrue(out.toString().contains("# *WARNING*: The DXT_POSIX module contains incomplete data!"));
    }

    @Test
    void dxtMpiioVersionOneHasNoOffsets() throws Exception {
        // darshan-util marks them -1: version 1 of DXT_MPIIO did not record where a call went (the log's text is
        // compared with darshan-dxt-parser's above)
        DarshanLog log = new DarshanReader().read(SampleLogs.get("pdla-written-dxt-mpiio-v1.darshan"));
        assertEquals(1, log.header().moduleVersions()[ModuleId.DXT_MPIIO.ordinal()]);
        List<DxtRecord> mpi = log.module(ModuleId.DXT_MPIIO).recordsOf(DxtRecord.class);
        assertFalse(mpi.isEmpty());
        for (DxtRecord d : mpi) for (long o : d.offsets()) assertEquals(-1, o);
        // DXT_POSIX version 1 did record them
        List<DxtRecord> posix = log.module(ModuleId.DXT_POSIX).recordsOf(DxtRecord.class);
        assertTrue(posix.stream().anyMatch(d -> d.segmentCount() > 0 && d.offsets()[0] > 0));
    }

    private static String digestOf(String log, String option) throws IOException {
        for (String line : ExpectedTexts.text(DIR + "sha256.tsv").split("\n")) {
            String[] f = line.split("\t");
            if (f.length == 4 && f[0].equals(log) && f[1].equals(option)) return f[3];
        }
        return null;
    }

    private static String sha256(CharSequence text) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8)));
    }
}
