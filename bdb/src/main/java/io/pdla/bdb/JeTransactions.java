package io.pdla.bdb;

import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.Environment;
import com.sleepycat.je.LockConflictException;
import com.sleepycat.je.Transaction;

/** Runs work in one committed transaction, retrying when it loses a lock conflict (deadlock or lock timeout). */
public final class JeTransactions {
    private JeTransactions() {
    }

    @FunctionalInterface
    public interface Work<T, X extends Exception> {
        T run(Transaction txn) throws X;
    }

    /**
     * Runs {@code work} in a new transaction and commits it. A {@link LockConflictException} aborts the
     * transaction and runs the work again, up to {@code attempts} runs in all; after the last one it is thrown
     * for the store to report. Any other failure aborts and is thrown unchanged.
     *
     * <p>An interrupted thread's transaction runs too, and the thread is interrupted again afterwards. JE writes its log
     * through NIO channels, which an interrupt closes; JE then invalidates the whole environment ("Environment must be
     * closed"), for every thread of the process. A thread told to stop (a replica build cancelled, a daemon shutting
     * down) must still record that it stopped, and must not take the store down with it.
     */
    public static <T, X extends Exception> T run(Environment env, int attempts, Work<T, X> work) throws X {
        if (attempts < 1) throw new IllegalArgumentException("transaction attempts must be >= 1, got " + attempts);
        boolean interrupted = Thread.interrupted();
        try {
            return attempt(env, attempts, work);
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    private static <T, X extends Exception> T attempt(Environment env, int attempts, Work<T, X> work) throws X {
        for (int attempt = 1; ; attempt++) {
            Transaction txn = env.beginTransaction(null, null);
            boolean committed = false;
            try {
                T result = work.run(txn);
                txn.commit();
                committed = true;
                return result;
            } catch (LockConflictException conflict) {
                if (attempt >= attempts) throw conflict;
            } finally {
                if (!committed) abortQuietly(txn);
            }
        }
    }

    private static void abortQuietly(Transaction txn) {
        try {
            txn.abort();
        } catch (DatabaseException ignored) {
            // the environment may already be invalid; the failure that got us here is the one to report
        }
    }
}
