package io.pdla.mpiio.programs;

import mpi.MPI;

/**
 * A tiny check runner for programs that run inside an MPJ job: every check prints
 * {@code PASS <rank> <name>} or {@code FAIL <rank> <name>: <why>}, and the JUnit side reads the lines.
 */
public final class Checks {
    public interface Body {
        void run() throws Exception;
    }

    private final int rank;
    private int failures;

    public Checks() throws Exception {
        this.rank = MPI.COMM_WORLD.Rank();
    }

    public int rank() {
        return rank;
    }

    public void check(String name, Body body) {
        try {
            body.run();
            System.out.println("PASS " + rank + " " + name);
        } catch (Throwable t) {
            failures++;
            System.out.println("FAIL " + rank + " " + name + ": " + t);
            t.printStackTrace(System.out);
        }
        System.out.flush();
    }

    public void done() {
        System.out.println("DONE " + rank + " failures=" + failures);
        System.out.flush();
    }

    static void expect(boolean condition, String message) {
        if (!condition) throw new AssertionError(message);
    }

    static void expectEquals(long expected, long actual, String what) {
        if (expected != actual) throw new AssertionError(what + ": expected " + expected + " but was " + actual);
    }

    static void expectBytes(byte[] expected, byte[] actual, String what) {
        if (expected.length != actual.length) throw new AssertionError(what + ": length " + actual.length + " != " + expected.length);
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] != actual[i]) throw new AssertionError(what + ": byte " + i + " is " + actual[i] + ", expected " + expected[i]);
        }
    }

    /** The byte every test writes at file offset {@code off}: a function of the offset alone. */
    static byte valueAt(long off) {
        return (byte) (off * 31 + (off >>> 8) * 7 + 1);
    }
}
