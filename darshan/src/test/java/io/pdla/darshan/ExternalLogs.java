package io.pdla.darshan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * An optional extra corpus of Darshan logs written by the real runtime (for instance the darshan-logs collection, which
 * states no licence and so is not in the repository): the folder named by the environment variable
 * {@value #VARIABLE} or the system property {@value #PROPERTY}. Nothing is read outside the checkout unless it is set;
 * the tests that need it are skipped with a reason naming the variable, and CI's skip check lists them as expected.
 */
public final class ExternalLogs {
    public static final String VARIABLE = "PDLA_DARSHAN_SAMPLE_LOGS";
    public static final String PROPERTY = "pdla.darshan.sampleLogs";

    private ExternalLogs() {}

    /** The folder, if one is named; a name that is not a folder is an error, not a skip. */
    public static Optional<Path> dir() {
        String v = System.getProperty(PROPERTY, System.getenv(VARIABLE));
        if (v == null || v.isBlank()) return Optional.empty();
        Path p = Path.of(v).toAbsolutePath();
        if (!Files.isDirectory(p)) throw new IllegalStateException(VARIABLE + " / -D" + PROPERTY + " names " + p + ", which is not a folder");
        return Optional.of(p);
    }

    /** The folder's {@code *.darshan} files, sorted; the test is skipped (naming the variable) when none is named. */
    public static List<Path> assumeAll() throws IOException {
        Optional<Path> d = dir();
        Assumptions.assumeTrue(d.isPresent(), "optional corpus of real Darshan logs: set " + VARIABLE + " (or -D" + PROPERTY
                + ") to a folder of *.darshan files to run this test");
        List<Path> logs;
        try (Stream<Path> s = Files.list(d.get())) {
            logs = s.filter(p -> p.toString().endsWith(".darshan")).sorted().toList();
        }
        if (logs.isEmpty()) throw new IllegalStateException(d.get() + " (" + VARIABLE + ") holds no *.darshan file");
        return logs;
    }
}
