package io.pdla.patterns.template;

import io.pdla.pattern.Geometry;

import java.util.Arrays;

/**
 * A pattern one rank made on one file.
 *
 * @param requests     data requests the pattern explains (all repetitions)
 * @param requestBytes bytes those requests moved (all repetitions)
 * @param repetitions  how many times the whole geometry was accessed in a row (1 = once)
 * @param requestSizes the distinct request sizes seen, ascending (at most 8 kept)
 */
public record LocalPattern(int rank, int fileId, PatternKind kind, OpMix ops, Geometry geometry, long requests,
                           long requestBytes, int repetitions, long[] requestSizes, Temporal temporal,
                           long firstStartNanos, long lastEndNanos) {

    /** Same geometry apart from the start offset, same operations: candidates for one global pattern. */
    public boolean sameShape(LocalPattern o) {
        Geometry.Spec a = geometry.spec(), b = o.geometry.spec();
        return ops == o.ops && repetitions == o.repetitions && a.totalBytes() == b.totalBytes()
                && Arrays.equals(a.segOffsets(), b.segOffsets()) && Arrays.equals(a.segLengths(), b.segLengths())
                && Arrays.equals(a.strides(), b.strides()) && Arrays.equals(a.counts(), b.counts());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LocalPattern p && rank == p.rank && fileId == p.fileId && kind == p.kind && ops == p.ops
                && geometry.equals(p.geometry) && requests == p.requests && requestBytes == p.requestBytes
                && repetitions == p.repetitions && Arrays.equals(requestSizes, p.requestSizes)
                && temporal.equals(p.temporal) && firstStartNanos == p.firstStartNanos && lastEndNanos == p.lastEndNanos;
    }

    @Override
    public int hashCode() {
        return 31 * geometry.hashCode() + rank * 7 + fileId;
    }

    @Override
    public String toString() {
        return "rank " + rank + " file " + fileId + " " + Notation.local(this);
    }
}
