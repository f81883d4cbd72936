package io.pdla.costmodel;

import java.util.Objects;

/**
 * {@code count} rounds in each of which every one of the pattern's {@code p} processes issues one request of
 * {@code size} bytes. One round is one "request r_i" of the model: the per-request formulas price p concurrent
 * requests of size s [V, S1 Table 2], and a pattern costs the sum over its rounds [V, S1 3.4.3].
 */
public record RequestBatch(long size, long count, Op op) {

    public RequestBatch {
        Checks.positive("size (s)", size);
        Checks.positive("count", count);
        Objects.requireNonNull(op, "op");
    }
}
