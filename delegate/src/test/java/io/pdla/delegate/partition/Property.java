package io.pdla.delegate.partition;

import java.util.Random;
import java.util.function.BiConsumer;

/** Runs a property over many random cases from a fresh seed and names the seed and case on failure. */
final class Property {
    private Property() {
    }

    static void forAll(int cases, BiConsumer<Random, Integer> property) {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (int c = 0; c < cases; c++) {
            try {
                property.accept(random, c);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("property failed at case " + c + " with seed " + seed + ": " + e.getMessage(), e);
            }
        }
    }

    /** A random request: small stripes so regions span many stripes, partial stripes at both ends. */
    static PartitionRequest request(Random r, int servers, int aggregators) {
        long stripe = 1 + r.nextInt(r.nextBoolean() ? 8 : 64);
        long start = r.nextInt(40) * stripe + (r.nextBoolean() ? r.nextInt((int) stripe) : 0);
        long length = r.nextInt(10) == 0 ? r.nextInt(3) : r.nextInt((int) (stripe * (1 + r.nextInt(120))));
        long minFd = r.nextInt(4) == 0 ? 1 + r.nextInt((int) (stripe * 8)) : 1;
        return new PartitionRequest(start, start + length, stripe, servers, aggregators, minFd);
    }

    static PartitionRequest request(Random r) {
        return request(r, 1 + r.nextInt(12), 1 + r.nextInt(40));
    }
}
