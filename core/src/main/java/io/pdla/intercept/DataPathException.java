package io.pdla.intercept;

import java.io.IOException;

/**
 * An interceptor that carries the application's bytes (the I/O delegates, which cache and write back its writes)
 * failed to deliver or make durable what it was given. Unlike a failure in tracing, analysis or replication, which
 * never fails the application's I/O, this one is the application's: an opener reports it from the call, close
 * included, instead of logging it.
 */
public class DataPathException extends IOException {
    public DataPathException(String message) {
        super(message);
    }

    public DataPathException(String message, Throwable cause) {
        super(message, cause);
    }
}
