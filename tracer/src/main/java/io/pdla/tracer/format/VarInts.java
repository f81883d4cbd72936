package io.pdla.tracer.format;

/** LEB128-style unsigned varints and zigzag for signed deltas: most trace numbers are small deltas. */
public final class VarInts {
    private VarInts() {
    }

    public static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    public static long unzigzag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }

    /** Bytes {@code v} takes as an unsigned varint. */
    public static int size(long v) {
        int n = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }
}
