package io.pdla.bench.ior;

import java.io.IOException;

/** Where results go (IOR's output, without an {@code if (format == ...)} in every print helper). */
public interface ResultSink {
    void header(RunInfo run) throws IOException;

    /** One reduced phase, as soon as it is measured. */
    void point(IterationPoint point) throws IOException;

    void finish(IorReport report) throws IOException;
}
