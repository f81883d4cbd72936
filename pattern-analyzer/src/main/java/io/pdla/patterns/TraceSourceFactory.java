package io.pdla.patterns;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Opens a trace directory as a {@link TraceSource}. The tracer's reader is adapted to this outside this module;
 * an implementation registered in {@code META-INF/services/io.pdla.patterns.TraceSourceFactory} is found by
 * {@link #installed()}.
 */
public interface TraceSourceFactory {
    /**
     * @throws IOException              the directory cannot be read
     * @throws IllegalArgumentException the directory holds no traces this reader understands (message says why)
     */
    TraceSource open(Path traceDir) throws IOException;

    /** The first factory on the class path, if any. */
    static Optional<TraceSourceFactory> installed() {
        return ServiceLoader.load(TraceSourceFactory.class).findFirst();
    }
}
