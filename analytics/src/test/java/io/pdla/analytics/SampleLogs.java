package io.pdla.analytics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The sample logs, found by their path relative to the project root ({@code ../shared/data/darshan-logs}). */
final class SampleLogs {
    private SampleLogs() {}

    static Path dir() {
        Path here = Path.of("").toAbsolutePath();
        Path root = Files.exists(here.resolve("analytics/pom.xml")) ? here : here.getParent();
        return root.resolve("../shared/data/darshan-logs").normalize();
    }

    static List<Path> all() throws IOException {
        try (Stream<Path> s = Files.list(dir())) {
            return s.filter(p -> p.toString().endsWith(".darshan")).sorted().toList();
        }
    }
}
