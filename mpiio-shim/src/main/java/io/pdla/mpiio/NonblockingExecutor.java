package io.pdla.mpiio;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs a file's nonblocking requests in the background. Independent requests (MPI_File_iread_at,
 * iwrite, iread_shared, ...) run on up to {@code parallelism} threads at once, since MPI does not order
 * them and drivers take concurrent positional calls; collective ones (iread_all, split collectives) run on
 * one thread of their own in the order they were started, which is the same order on every rank (MPI
 * requires collective calls on a file in one order), so every rank enters the two-phase engine with the
 * same call. Threads start with the first request and are daemons, so a program that never waits exits.
 *
 * <p>Requests nobody waited for are kept until close, which reports the first error among them.
 */
final class NonblockingExecutor {
    private final String threadName;
    private final int parallelism;
    private ExecutorService independent;
    private ExecutorService collective;
    private volatile Thread collectiveThread;
    private final List<IoRequest> unwaited = new ArrayList<>();

    NonblockingExecutor(String threadName, int parallelism) {
        this.threadName = threadName;
        this.parallelism = Math.max(1, parallelism);
    }

    synchronized IoRequest submit(Callable<IoStatus> transfer) {
        if (independent == null) independent = pool(parallelism, "");
        return track(new IoRequest(independent.submit(transfer)));
    }

    synchronized IoRequest submitCollective(Callable<IoStatus> transfer) {
        if (collective == null) {
            collective = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, threadName + "-coll");
                t.setDaemon(true);
                collectiveThread = t;
                return t;
            });
        }
        return track(new IoRequest(collective.submit(transfer)));
    }

    private IoRequest track(IoRequest r) {
        unwaited.removeIf(IoRequest::settled);
        unwaited.add(r);
        return r;
    }

    /**
     * Waits until the nonblocking collectives started before now have finished: a blocking collective step
     * on the file (an agreement, a two-phase call) must not run on the calling thread while one of them is
     * exchanging with the other ranks in the background.
     */
    void awaitCollectives() {
        if (Thread.currentThread() == collectiveThread) return; // a split ordered call runs its protocol there
        Future<?> marker;
        synchronized (this) {
            if (collective == null) return;
            marker = collective.submit(() -> { });
        }
        try {
            marker.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    private ExecutorService pool(int threads, String suffix) {
        int[] n = {0};
        return Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, threadName + suffix + "-" + n[0]++);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Lets every submitted request finish (close must not pull the file away under one) and returns the
     * first failure of a request that nobody waited for, or null.
     */
    MPIIOException drain() {
        ExecutorService a, b;
        List<IoRequest> left;
        synchronized (this) {
            a = independent;
            b = collective;
            left = new ArrayList<>(unwaited);
            unwaited.clear();
        }
        for (ExecutorService e : new ExecutorService[]{b, a}) {
            if (e == null) continue;
            e.shutdown();
            try {
                e.awaitTermination(1, TimeUnit.HOURS);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        }
        for (IoRequest r : left) {
            MPIIOException failure = r.unreportedFailure();
            if (failure != null) return new MPIIOException(failure.errorClass(),
                    "a nonblocking request nobody waited for failed: " + failure.getMessage(), failure);
        }
        return null;
    }
}
