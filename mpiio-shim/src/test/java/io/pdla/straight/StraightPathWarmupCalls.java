package io.pdla.straight;

/** The warm-up's call count, for tests in other packages. */
public final class StraightPathWarmupCalls {
    public static final int CALLS = StraightPathWarmup.CALLS;

    private StraightPathWarmupCalls() {
    }
}
