package io.pdla.patterns.template;

import io.pdla.pattern.Geometry;

/** Which template a pattern was found by, read off its closed form. */
public enum PatternKind {
    /** One contiguous run (requests of any sizes, each starting where the previous ended). */
    CONTIGUOUS,
    /** Fixed positive stride larger than the request. */
    STRIDED,
    /** Fixed negative (decreasing) stride. */
    NEGATIVE_STRIDED,
    /** Two or more stride levels (PIO-Bench nested strided, MPI-Tile-IO tiles). */
    NESTED_STRIDED,
    /** A repeating sequence of request sizes (cycle of two or more segments) at a fixed period. */
    SIZE_SEQUENCE;

    public static PatternKind of(Geometry g) {
        if (g.segments() > 1) return SIZE_SEQUENCE;
        if (g.levels() == 0) return CONTIGUOUS;
        if (g.levels() == 1) {
            if (g.stride(0) == g.segmentLength(0)) return CONTIGUOUS;
            return g.stride(0) > 0 ? STRIDED : NEGATIVE_STRIDED;
        }
        return NESTED_STRIDED;
    }
}
