package io.pdla.costmodel;

import java.util.Objects;

/** One traced access of one process. The model ignores the offset (it has no notion of locality), see {@link AccessPattern}. */
public record Request(long offset, long size, Op op) {

    public Request {
        Checks.nonNegative("offset", offset);
        Checks.positive("size (s)", size);
        Objects.requireNonNull(op, "op");
    }
}
