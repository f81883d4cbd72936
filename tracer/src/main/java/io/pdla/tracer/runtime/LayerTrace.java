package io.pdla.tracer.runtime;

import io.pdla.tracer.format.TraceEncoder;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * A rank's trace of a layer other than the application's (the aggregator layer): its own file and writer
 * thread, the rank's header, and its own file table (a file is declared before its first request here too).
 */
final class LayerTrace {
    final TraceOutput out;
    final TraceEncoder encoder;
    private final Set<Integer> declared = new HashSet<>();
    long dropped;

    LayerTrace(Path file, byte[] header, int rank) throws IOException {
        this.out = new TraceOutput(file, header, rank);
        this.encoder = new TraceEncoder(out);
    }

    void add(TracedFile t, int kind, long offset, long length, long start, long end) {
        if (declared.add(t.fileId())) encoder.file(t.fileId(), t.path());
        encoder.add(kind, t.fileId(), offset, length, start, end);
    }

    /** Seals what is there (a checkpoint) and hands it to the writer without waiting. */
    void checkpoint() {
        encoder.checkpoint(dropped);
        out.flush(0);
    }

    void end(long millis) {
        encoder.end(dropped);
        out.close(millis);
    }
}
