package io.pdla.darshan;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Byte-for-byte comparison with darshan-util's own darshan-parser (3.5.0, built from source): the expected texts
 * under {@code expected/darshan-parser} are its output on the sample logs (how they were made: the README there).
 */
class DarshanParserOutputTest {
    private static final String DIR = "/expected/darshan-parser/";

    record Digest(String log, String option, boolean parserFailed, String sha256) {}

    static List<Path> logs() throws IOException { return SampleLogs.all(); }

    static List<Digest> digests() throws IOException {
        List<Digest> out = new ArrayList<>();
        for (String line : ExpectedTexts.text(DIR + "sha256.tsv").split("\n")) {
            if (line.isBlank()) continue;
            String[] f = line.split("\t");
            out.add(new Digest(f[0], f[1], !f[2].equals("0"), f[3]));
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("logs")
    void allOptionsPrintExactlyWhatDarshanParserPrints(Path log) throws Exception {
        String name = log.getFileName().toString().replace(".darshan", "");
        String actual = print(log, new ParserReport.Options(true, true, true, true, true));
        ExpectedTexts.assertSameText(name + " --all", "darshan-parser", ExpectedTexts.gzipped(DIR + name + ".all.txt.gz"), actual);
    }

    @ParameterizedTest
    @MethodSource("digests")
    void eachOptionAloneMatchesDarshanParsersDigest(Digest d) throws Exception {
        boolean base = d.option().equals("--base"), total = d.option().equals("--total"),
                file = d.option().equals("--file"), perf = d.option().equals("--perf");
        assertTrue(base || total || file || perf, "unknown option in sha256.tsv: " + d.option());
        Path log = SampleLogs.dir().resolve(d.log());
        StringBuilder out = new StringBuilder();
        boolean refused = false;
        try {
            new ParserReport(out, new StringBuilder(), ZoneId.of("UTC"))
                    .print(new DarshanReader().read(log), new ParserReport.Options(base, total, file, perf, false));
        } catch (ParserReport.IncompleteLogException e) {
            refused = true;
        }
        assertEquals(d.parserFailed(), refused, d.log() + " " + d.option() + ": darshan-parser "
                + (d.parserFailed() ? "refused" : "accepted") + " this incomplete/complete log");
        byte[] sha = MessageDigest.getInstance("SHA-256").digest(out.toString().getBytes(StandardCharsets.UTF_8));
        assertEquals(d.sha256(), HexFormat.of().formatHex(sha), d.log() + " " + d.option() + " output digest");
    }

    private static String print(Path log, ParserReport.Options options) throws IOException {
        StringBuilder out = new StringBuilder();
        try {
            new ParserReport(out, new StringBuilder(), ZoneId.of("UTC")).print(new DarshanReader().read(log), options);
        } catch (ParserReport.IncompleteLogException e) {
            // --all includes --show-incomplete, so this is not expected; the comparison below reports the difference
        }
        return out.toString();
    }
}
