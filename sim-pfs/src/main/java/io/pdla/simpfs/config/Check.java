package io.pdla.simpfs.config;

final class Check {
    private Check() {
    }

    static void positive(String name, double value) {
        if (!(value > 0) || Double.isInfinite(value)) throw new ConfigException(name + " must be a positive number, was " + value);
    }

    static void nonNegative(String name, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) throw new ConfigException(name + " must be >= 0, was " + value);
    }
}
