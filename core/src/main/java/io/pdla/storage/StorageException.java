package io.pdla.storage;

import java.io.IOException;

/**
 * A storage failure with a reason the MPI-IO layer can map to an MPI error class. Drivers translate their
 * own exceptions into one of these, so the shim never has to know a driver's exception types.
 */
public class StorageException extends IOException {
    public enum Reason { NO_SUCH_FILE, FILE_EXISTS, ACCESS_DENIED, NO_SPACE, READ_ONLY, UNSUPPORTED, BAD_ARGUMENT, IO }

    private final Reason reason;

    public StorageException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public StorageException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
