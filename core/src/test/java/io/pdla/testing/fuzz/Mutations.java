package io.pdla.testing.fuzz;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * jqwik generators that mutate valid inputs (issue 18): truncation, flipped bytes, length and count fields
 * overwritten with huge, zero or negative values, over-long varints, inserted, deleted, duplicated and zeroed
 * ranges, and writes at given field offsets (magic, version, counts) for a format's header. Every module's
 * fuzz properties start from a valid file of their format and apply these.
 */
public final class Mutations {
    private Mutations() {
    }

    /** Values that break length and count fields: the ends of the ranges, zero, small negatives, sizes near 2^31 and 2^63. */
    public static Arbitrary<Long> nastyValues() {
        return Arbitraries.oneOf(
                Arbitraries.of(0L, -1L, 1L, -2L, 255L, 65535L, 65536L, (long) Integer.MAX_VALUE, (long) Integer.MIN_VALUE, 0x7FFFFFF0L,
                        (long) Integer.MAX_VALUE + 1, 0xFFFFFFFFL, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 7, 1L << 40, 1L << 62),
                Arbitraries.longs(),
                Arbitraries.longs().between(-1000L, 1L << 20),
                // plausible-looking but large counts and lengths: positive ints and longs, spread over their range
                Arbitraries.integers().between(2, Integer.MAX_VALUE).withDistribution(net.jqwik.api.RandomDistribution.uniform()).map(Long::valueOf),
                Arbitraries.longs().between(2, Long.MAX_VALUE).withDistribution(net.jqwik.api.RandomDistribution.uniform()));
    }

    private static Arbitrary<Double> where() {
        return Arbitraries.doubles().between(0, 1).ofScale(4);
    }

    private static int at(byte[] b, double where, int width) {
        if (b.length < width) return -1;
        return (int) Math.min(b.length - width, Math.floor(where * (b.length - width + 1)));
    }

    public static Arbitrary<Mutation> truncate() {
        return where().map(w -> new Mutation("truncate", "truncate at " + w + " of the length",
                b -> Arrays.copyOf(b, (int) Math.floor(w * b.length))));
    }

    public static Arbitrary<Mutation> flipBytes() {
        return Combinators.combine(where(), Arbitraries.integers().between(1, 8), Arbitraries.integers().between(1, 255))
                .as((w, n, mask) -> new Mutation("flip", "xor " + n + " byte(s) from " + w + " with 0x" + Integer.toHexString(mask), b -> {
                    int p = at(b, w, 1);
                    for (int i = 0; p >= 0 && i < n && p + i < b.length; i++) b[p + i] ^= (byte) (int) mask;
                    return b;
                }));
    }

    /** Overwrites 2, 4 or 8 bytes at a position with a nasty value, in the format's byte order: hits length and count fields. */
    public static Arbitrary<Mutation> overwriteField(ByteOrder order) {
        return Combinators.combine(where(), Arbitraries.of(2, 4, 8), nastyValues())
                .as((w, width, v) -> new Mutation("int" + width * 8, "set " + width + " bytes at " + w + " to " + v + " (" + order + ")",
                        b -> put(b, at(b, w, width), width, v, order)));
    }

    /** Writes a value at one of the given byte offsets (a header's magic, version, counts, lengths). */
    public static Arbitrary<Mutation> atFields(ByteOrder order, List<Field> fields) {
        return Combinators.combine(Arbitraries.of(fields), nastyValues())
                .as((f, v) -> new Mutation("field:" + f.name(), "set " + f.name() + " (byte " + f.offset() + ", " + f.width() + " bytes) to " + v,
                        b -> put(b, b.length >= f.offset() + f.width() ? f.offset() : -1, f.width(), v, order)));
    }

    /** A field of a format's fixed header. */
    public record Field(String name, int offset, int width) {
    }

    /** Inserts 1-10 bytes of 0xFF (an over-long or huge LEB128 varint) or 0x80 continuation bytes. */
    public static Arbitrary<Mutation> hugeVarint() {
        return Combinators.combine(where(), Arbitraries.integers().between(1, 11), Arbitraries.of((byte) 0xFF, (byte) 0x80, (byte) 0xFE))
                .as((w, n, fill) -> new Mutation("varint", "insert " + n + " x 0x" + Integer.toHexString(fill & 0xFF) + " at " + w, b -> {
                    byte[] ins = new byte[n];
                    Arrays.fill(ins, fill);
                    return splice(b, at(b, w, 0), 0, ins);
                }));
    }

    public static Arbitrary<Mutation> insertBytes() {
        return Combinators.combine(where(), Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(64))
                .as((w, ins) -> new Mutation("insert", "insert " + ins.length + " random bytes at " + w, b -> splice(b, at(b, w, 0), 0, ins)));
    }

    public static Arbitrary<Mutation> deleteRange() {
        return Combinators.combine(where(), Arbitraries.integers().between(1, 256))
                .as((w, n) -> new Mutation("delete", "delete " + n + " bytes at " + w, b -> {
                    int p = at(b, w, 0);
                    return splice(b, p, Math.min(n, b.length - p), new byte[0]);
                }));
    }

    public static Arbitrary<Mutation> duplicateRange() {
        return Combinators.combine(where(), Arbitraries.integers().between(1, 512))
                .as((w, n) -> new Mutation("duplicate", "duplicate " + n + " bytes at " + w, b -> {
                    int p = at(b, w, 0);
                    return splice(b, p, 0, Arrays.copyOfRange(b, p, Math.min(b.length, p + n)));
                }));
    }

    public static Arbitrary<Mutation> zeroRange() {
        return Combinators.combine(where(), Arbitraries.integers().between(1, 256))
                .as((w, n) -> new Mutation("zero", "zero " + n + " bytes at " + w, b -> {
                    int p = at(b, w, 0);
                    Arrays.fill(b, p, Math.min(b.length, p + n), (byte) 0);
                    return b;
                }));
    }

    /** Any one mutation, weighted towards the ones that reach length fields. */
    public static Arbitrary<Mutation> any(ByteOrder order) {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(2, truncate()),
                net.jqwik.api.Tuple.of(3, flipBytes()),
                net.jqwik.api.Tuple.of(4, overwriteField(order)),
                net.jqwik.api.Tuple.of(2, hugeVarint()),
                net.jqwik.api.Tuple.of(1, insertBytes()),
                net.jqwik.api.Tuple.of(1, deleteRange()),
                net.jqwik.api.Tuple.of(1, duplicateRange()),
                net.jqwik.api.Tuple.of(1, zeroRange()));
    }

    /** One to three mutations in a row. */
    public static Arbitrary<Mutation> some(ByteOrder order) {
        return any(order).list().ofMinSize(1).ofMaxSize(3).map(l -> l.stream().reduce(Mutation::andThen).orElseThrow());
    }

    private static byte[] put(byte[] b, int p, int width, long v, ByteOrder order) {
        if (p < 0) return b;
        ByteBuffer buf = ByteBuffer.wrap(b).order(order);
        switch (width) {
            case 2 -> buf.putShort(p, (short) v);
            case 4 -> buf.putInt(p, (int) v);
            case 8 -> buf.putLong(p, v);
            default -> throw new IllegalArgumentException("width " + width);
        }
        return b;
    }

    private static byte[] splice(byte[] b, int p, int remove, byte[] insert) {
        if (p < 0) p = 0;
        byte[] out = new byte[b.length - remove + insert.length];
        System.arraycopy(b, 0, out, 0, p);
        System.arraycopy(insert, 0, out, p, insert.length);
        System.arraycopy(b, p + remove, out, p + insert.length, b.length - p - remove);
        return out;
    }
}
