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
        // a text too large to keep (sample-badost: 199,132 lines) is kept as its digest
        for (Digest d : digests()) {
            if (d.log().equals(log.getFileName().toString()) && d.option().equals("--all")) {
                assertEquals(d.sha256(), sha256(actual), name + " --all output digest");
                return;
            }
        }
        ExpectedTexts.assertSameText(name + " --all", "darshan-parser", ExpectedTexts.gzipped(DIR + name + ".all.txt.gz"), actual);
    }

    static List<Digest> singleOptionDigests() throws IOException {
        return digests().stream().filter(d -> !d.option().equals("--all")).toList();
    }

    @ParameterizedTest
    @MethodSource("singleOptionDigests")
    void eachOptionAloneMatchesDarshanParsersDigest(Digest d) throws Exception {
        boolean base = d.option().equals("--base"), total = d.option().equals("--total"),
                file = d.option().equals("--file"), perf = d.option().equals("--perf");
        assertTrue(base || total || file || perf, "unknown option in sha256.tsv: " + d.option());
        Path log = SampleLogs.get(d.log());
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
        assertEquals(d.sha256(), sha256(out.toString()), d.log() + " " + d.option() + " output digest");
    }

    private static String sha256(String text) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
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
