package io.pdla.patterns.rootcause;

/** A critical file's exclusive part of the critical path: {@code [from, to)}. */
public record Share(String file, double from, double to) {
    public double seconds() {
        return to - from;
    }
}
