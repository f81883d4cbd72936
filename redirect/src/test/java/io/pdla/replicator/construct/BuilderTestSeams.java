package io.pdla.replicator.construct;

/**
 * Test-only access to {@link ReplicaBuilder}'s package-private seam, from redirect's tests (declared in the builder's
 * package so that the seam itself need not be public: main code of no module can call it).
 */
public final class BuilderTestSeams {
    private BuilderTestSeams() {
    }

    /** {@code step} runs once at {@code builder}'s next publication, before the original is indexed. */
    public static void onceBeforeIndexing(ReplicaBuilder builder, Runnable step) {
        builder.onceBeforeIndexing(step);
    }
}
