package io.pdla.tracer.format;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** A trace directory that is not a whole job: ranks missing, ranks disagreeing, or no trace at all. */
public final class TraceDirectoryException extends IOException {
    private final Path dir;
    private final List<Integer> missingRanks;

    public TraceDirectoryException(Path dir, List<Integer> missingRanks, String problem) {
        super(dir + ": " + problem);
        this.dir = dir;
        this.missingRanks = List.copyOf(missingRanks);
    }

    public Path dir() {
        return dir;
    }

    /** Ranks whose file is missing (empty for other problems). */
    public List<Integer> missingRanks() {
        return missingRanks;
    }
}
