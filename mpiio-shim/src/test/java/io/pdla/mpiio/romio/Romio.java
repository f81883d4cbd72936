package io.pdla.mpiio.romio;

import mpi.MPI;

import java.nio.file.Path;

/**
 * What every ported ROMIO test shares: the file name ROMIO takes as {@code -fname} (here a directory
 * argument and the test's name), ROMIO's error count reduced over all ranks at the end ("No Errors"), and
 * ROMIO's {@code handle_error}, which aborts the job. Each rank prints {@code PASS <rank> <test>} or
 * {@code FAIL <rank> <test>: <why>} and {@code DONE <rank> failures=<n>}, which the JUnit side reads.
 */
final class Romio {
    interface Body {
        void run(Romio t) throws Exception;
    }

    private final String test;
    private final Path dir;
    private final String[] args;
    private final int rank;
    private final int size;
    private int errs;

    private Romio(String test, String[] args) throws Exception {
        this.test = test;
        if (args.length < 1) throw new IllegalArgumentException(test + ": usage: <directory for the test files> [options]");
        this.dir = Path.of(args[0]);
        this.args = args;
        this.rank = MPI.COMM_WORLD.Rank();
        this.size = MPI.COMM_WORLD.Size();
    }

    /** MPI_Init, the test body, the reduced verdict, MPI_Finalize; an exception is ROMIO's handle_error (abort). */
    static void run(String test, String[] argv, Body body) throws Exception {
        String[] args = MPI.Init(argv);
        Romio t = new Romio(test, args);
        try {
            body.run(t);
        } catch (Throwable e) {
            System.out.println("FAIL " + t.rank + " " + test + ": " + e);
            e.printStackTrace(System.out);
            System.out.flush();
            // MPI_Abort: MPJ's multicore Abort leaves the other ranks waiting in their next collective call,
            // so end the JVM that holds all of them (under niodev this rank's JVM, which MPJ reports)
            System.exit(1);
        }
        t.finish();
        MPI.Finalize();
    }

    /** ROMIO's {@code -fname} value: one file name per test, the same on every rank. */
    String filename() {
        return dir.resolve("romio_test_" + test).toString();
    }

    Path dir() {
        return dir;
    }

    /** Whether the option (ROMIO's command-line flag, e.g. {@code -h}) was passed after the directory. */
    boolean option(String flag) {
        for (int i = 1; i < args.length; i++) if (args[i].equals(flag)) return true;
        return false;
    }

    /** The value after {@code flag}, or {@code fallback}. */
    String option(String flag, String fallback) {
        for (int i = 1; i + 1 < args.length; i++) if (args[i].equals(flag)) return args[i + 1];
        return fallback;
    }

    int rank() {
        return rank;
    }

    int size() {
        return size;
    }

    /** ROMIO's {@code errs++} with its message on stderr; printed as a FAIL line so the JUnit side shows it. */
    void error(String message) {
        errs++;
        if (errs <= 20) System.out.println("FAIL " + rank + " " + test + ": " + message);
        else if (errs == 21) System.out.println("FAIL " + rank + " " + test + ": (further errors not printed)");
    }

    void expect(boolean condition, String message) {
        if (!condition) error(message);
    }

    void expectEquals(long expected, long actual, String what) {
        if (expected != actual) error(what + ": " + actual + ", should be " + expected);
    }

    int errors() {
        return errs;
    }

    /** ROMIO's closing MPI_Allreduce of the error counts: every rank passes only if no rank found an error. */
    private void finish() throws Exception {
        int[] mine = {errs};
        int[] total = new int[1];
        MPI.COMM_WORLD.Allreduce(mine, 0, total, 0, 1, MPI.INT, MPI.SUM);
        if (rank == 0) System.out.println(total[0] == 0 ? " No Errors" : "Found " + total[0] + " errors");
        if (total[0] == 0) System.out.println("PASS " + rank + " " + test);
        else if (errs == 0) System.out.println("FAIL " + rank + " " + test + ": other ranks found " + total[0] + " errors");
        System.out.println("DONE " + rank + " failures=" + errs);
        System.out.flush();
    }
}
