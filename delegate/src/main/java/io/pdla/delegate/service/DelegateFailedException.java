package io.pdla.delegate.service;

import java.io.IOException;

/**
 * A delegate did not answer (dead or hung), or answered with an error: the operation's data state is unknown. A
 * failure of the application's data path, so an opener reports it even at close ({@link io.pdla.intercept.DataPathException}).
 */
public final class DelegateFailedException extends io.pdla.intercept.DataPathException {
    public DelegateFailedException(String message) {
        super(message);
    }
}
