package io.pdla.analytics;

import io.pdla.darshan.WrittenLogs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** The sample logs: those darshan's {@link WrittenLogs} makes with pdla's writer (in this module's target/written-logs). */
final class SampleLogs {
    private SampleLogs() {}

    static Path dir() throws IOException {
        WrittenLogs.all();
        return WrittenLogs.dir();
    }

    static List<Path> all() throws IOException { return WrittenLogs.all(); }

    static Path get(String name) throws IOException { return WrittenLogs.get(name); }
}
