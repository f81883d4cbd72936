package io.pdla.bdb;

import java.nio.file.Path;

/**
 * Another process kept the environment open for writing longer than the caller was willing to wait (JE lets one
 * process at a time open an environment for writing), or the waiting thread was interrupted. Each store turns
 * this into its own message.
 */
public final class EnvironmentBusyException extends RuntimeException {
    private final Path directory;
    private final long waitedMillis;
    private final boolean interrupted;

    EnvironmentBusyException(Path directory, long waitedMillis, boolean interrupted, Throwable cause) {
        super((interrupted ? "interrupted while waiting for the JE environment in " : "JE environment in ") + directory
                + (interrupted ? "" : waitedMillis == 0 ? " is open for writing by another process"
                        : " stayed locked by another process for " + waitedMillis + " ms")
                + ": " + cause.getMessage(), cause);
        this.directory = directory;
        this.waitedMillis = waitedMillis;
        this.interrupted = interrupted;
    }

    public Path directory() {
        return directory;
    }

    /** The wait the caller allowed (0: it did not wait). */
    public long waitedMillis() {
        return waitedMillis;
    }

    public boolean interrupted() {
        return interrupted;
    }
}
