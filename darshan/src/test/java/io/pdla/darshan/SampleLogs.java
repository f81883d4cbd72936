package io.pdla.darshan;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The darshan module's sample logs: those {@link WrittenLogs} makes with pdla's writer. Logs from elsewhere (a local
 * folder of real runtime logs) are the optional extra corpus of {@link ExternalLogs}.
 */
final class SampleLogs {
    private SampleLogs() {}

    static Path dir() { return WrittenLogs.dir(); }

    static List<Path> all() throws IOException { return WrittenLogs.all(); }

    static Path get(String name) throws IOException { return WrittenLogs.get(name); }
}
