package io.pdla.darshan;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;

/** The reference texts under {@code src/test/resources/expected}: what darshan-util's own tools printed. */
final class ExpectedTexts {
    private ExpectedTexts() {}

    static InputStream stream(String path) {
        InputStream in = ExpectedTexts.class.getResourceAsStream(path);
        assertNotNull(in, "test resource " + path + " missing");
        return in;
    }

    static String text(String path) throws IOException {
        try (InputStream in = stream(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static String gzipped(String path) throws IOException {
        try (InputStream in = new GZIPInputStream(stream(path))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Fails naming the first line where {@code actual} departs from what {@code tool} printed. */
    static void assertSameText(String what, String tool, String expected, String actual) {
        if (expected.equals(actual)) return;
        String[] e = expected.split("\n", -1), a = actual.split("\n", -1);
        int i = 0;
        while (i < Math.min(e.length, a.length) && e[i].equals(a[i])) i++;
        fail(what + " differs from " + tool + " at line " + (i + 1) + ":\n expected: "
                + (i < e.length ? e[i] : "<end>") + "\n   actual: " + (i < a.length ? a[i] : "<end>"));
    }
}
