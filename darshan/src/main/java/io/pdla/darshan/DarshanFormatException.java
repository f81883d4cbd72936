package io.pdla.darshan;

import java.io.IOException;

/** A log that is not a readable Darshan log; the message names the region and the file offset. */
public final class DarshanFormatException extends IOException {
    private final String region;
    private final long offset;

    public DarshanFormatException(String region, long offset, String what) {
        super(what + " (region: " + region + ", file offset " + offset + ")");
        this.region = region;
        this.offset = offset;
    }

    public DarshanFormatException(String region, long offset, String what, Throwable cause) {
        this(region, offset, what);
        initCause(cause);
    }

    public String region() { return region; }

    public long offset() { return offset; }
}
