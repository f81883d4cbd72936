package io.pdla.tracer.counters;

import java.nio.charset.StandardCharsets;

/**
 * Darshan's record id: Bob Jenkins' lookup8 {@code hash(key, length, 0)} of the cleaned path, so that
 * our record ids equal Darshan's for the same path and tools can join logs on them.
 */
public final class DarshanHash {
    private DarshanHash() {
    }

    public static long of(String path) {
        return hash(path.getBytes(StandardCharsets.UTF_8), 0);
    }

    static long hash(byte[] k, long level) {
        long a = level;
        long b = level;
        long c = 0x9e3779b97f4a7c13L;
        int len = k.length;
        int p = 0;
        long[] abc = new long[3];
        while (len >= 24) {
            a += le(k, p);
            b += le(k, p + 8);
            c += le(k, p + 16);
            abc[0] = a;
            abc[1] = b;
            abc[2] = c;
            mix(abc);
            a = abc[0];
            b = abc[1];
            c = abc[2];
            p += 24;
            len -= 24;
        }
        c += k.length;
        // The remaining bytes: 16..22 into c above its low byte, 8..15 into b, 0..7 into a.
        for (int i = len - 1; i >= 0; i--) {
            long v = k[p + i] & 0xFFL;
            if (i >= 16) c += v << (8 * (i - 16 + 1));
            else if (i >= 8) b += v << (8 * (i - 8));
            else a += v << (8 * i);
        }
        abc[0] = a;
        abc[1] = b;
        abc[2] = c;
        mix(abc);
        return abc[2];
    }

    private static long le(byte[] k, int p) {
        long v = 0;
        for (int i = 7; i >= 0; i--) v = v << 8 | (k[p + i] & 0xFFL);
        return v;
    }

    private static void mix(long[] s) {
        long a = s[0], b = s[1], c = s[2];
        a -= b; a -= c; a ^= (c >>> 43);
        b -= c; b -= a; b ^= (a << 9);
        c -= a; c -= b; c ^= (b >>> 8);
        a -= b; a -= c; a ^= (c >>> 38);
        b -= c; b -= a; b ^= (a << 23);
        c -= a; c -= b; c ^= (b >>> 5);
        a -= b; a -= c; a ^= (c >>> 35);
        b -= c; b -= a; b ^= (a << 49);
        c -= a; c -= b; c ^= (b >>> 11);
        a -= b; a -= c; a ^= (c >>> 12);
        b -= c; b -= a; b ^= (a << 18);
        c -= a; c -= b; c ^= (b >>> 22);
        s[0] = a;
        s[1] = b;
        s[2] = c;
    }
}
