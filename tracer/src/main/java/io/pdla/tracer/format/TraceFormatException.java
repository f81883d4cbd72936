package io.pdla.tracer.format;

import java.io.IOException;
import java.nio.file.Path;

/** A trace or counter file that cannot be read as written: names the file and the byte where reading failed. */
public final class TraceFormatException extends IOException {
    private final Path file;
    private final long bytePosition;

    public TraceFormatException(Path file, long bytePosition, String problem) {
        super(file + ", byte " + bytePosition + ": " + problem);
        this.file = file;
        this.bytePosition = bytePosition;
    }

    public Path file() {
        return file;
    }

    public long bytePosition() {
        return bytePosition;
    }
}
