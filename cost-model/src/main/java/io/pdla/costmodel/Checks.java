package io.pdla.costmodel;

/**
 * Argument checks shared by the model classes. Every failure is an {@link IllegalArgumentException}
 * whose message names the argument and the offending value, so a bad CLI option or a corrupt
 * properties file can be traced without a debugger.
 */
public final class Checks {

    private Checks() {
    }

    public static int positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, was " + value);
        }
        return value;
    }

    public static long positive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, was " + value);
        }
        return value;
    }

    public static double positive(String name, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be finite and > 0, was " + value);
        }
        return value;
    }

    public static int nonNegative(String name, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must be >= 0, was " + value);
        }
        return value;
    }

    public static long nonNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must be >= 0, was " + value);
        }
        return value;
    }

    /** Rejects negative, NaN and infinite values: a model time must be a finite, non-negative number. */
    public static double nonNegative(String name, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be finite and >= 0, was " + value);
        }
        return value;
    }
}
