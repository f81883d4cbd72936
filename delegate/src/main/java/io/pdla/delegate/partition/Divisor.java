package io.pdla.delegate.partition;

/**
 * Division of non-negative longs by a fixed divisor, by a shift when it is a power of two (stripe sizes and
 * server counts usually are): a 64-bit divide costs tens of cycles, and the exchange plan divides for every
 * piece of every rank.
 */
final class Divisor {
    private final long divisor;
    private final int shift;

    Divisor(long divisor) {
        this.divisor = divisor;
        this.shift = Long.bitCount(divisor) == 1 ? Long.numberOfTrailingZeros(divisor) : -1;
    }

    long quotient(long x) {
        return shift >= 0 ? x >>> shift : x / divisor;
    }

    long remainder(long x) {
        return shift >= 0 ? x & (divisor - 1) : x % divisor;
    }
}
