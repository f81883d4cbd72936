package io.pdla.delegate.service;

import java.io.IOException;

/** A delegate did not answer (dead or hung), or answered with an error: the operation's data state is unknown. */
public final class DelegateFailedException extends IOException {
    public DelegateFailedException(String message) {
        super(message);
    }
}
