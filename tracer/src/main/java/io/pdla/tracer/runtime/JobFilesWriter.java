package io.pdla.tracer.runtime;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Writes what a trace directory holds for the whole job once every rank's summary is there: job.json, the reduced
 * counter log and, when asked, a Darshan log. Apart from {@link RankTracer} because those files are written with
 * Jackson and Commons Compress, which must not be on the system class path: the tracer's runtime is loaded once per
 * JVM for all multicore ranks (the launcher's shared classes), and finds this through {@link java.util.ServiceLoader}
 * in the rank's own class loader, where the libraries are. Without one the directory lacks those files, which
 * every reader rebuilds from the summaries.
 */
public interface JobFilesWriter {
    /** Writes the job's files into {@code dir}; {@code writer} names the rank for temporary files, {@code hints} the tracer's. */
    void write(Path dir, String writer, Map<String, String> hints) throws IOException;
}
