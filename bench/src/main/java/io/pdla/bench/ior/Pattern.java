package io.pdla.bench.ior;

import java.util.Arrays;

/**
 * The data written and checked: a buffer that depends on the writing rank, with the first eight bytes of
 * every transfer replaced by its file offset (as IOR's stored-offset signature), so that data written to
 * the wrong place, by the wrong rank, or not at all is detected. Filled once per phase, so the timed loop
 * costs only the eight-byte stamp per transfer.
 */
public final class Pattern {
    private Pattern() {
    }

    public static byte[] filled(int writerRank, int length) {
        byte[] b = new byte[length];
        int seed = writerRank * 0x9E3779B1 + 0x7F4A7C15;
        for (int j = 0; j < length; j++) {
            b[j] = (byte) ((j * 31 + seed) ^ (j >>> 8) ^ (seed >>> 16));
        }
        return b;
    }

    /** Writes {@code offset} into the first (up to) eight bytes, big-endian. */
    public static void stamp(byte[] buf, long offset) {
        int n = Math.min(8, buf.length);
        for (int i = 0; i < n; i++) buf[i] = (byte) (offset >>> (56 - 8 * i));
    }

    /** Index of the first byte of {@code actual} that differs from {@code expected}, or -1. */
    public static int mismatch(byte[] expected, byte[] actual, int length) {
        return Arrays.mismatch(expected, 0, length, actual, 0, length);
    }
}
