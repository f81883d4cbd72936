package io.pdla.replicator.construct;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Writes a {@link SharedOriginalCopy}'s filled buffers into their replicas on a thread of its own, so that the copy's
 * read of the next window of the original overlaps the writes of the last ones (in turn on one thread, the writes
 * were 60 % of the copy: bench/RESULTS-online.md, the daemon under JFR). One thread and one queue for all the
 * replicas: each replica's buffers are written in the order they were handed in, at the end of what it holds.
 *
 * <p>Each replica has two buffers: the copy fills one while the other waits here to be written, and waits itself only
 * when it has filled the second before the first is written. A write that fails drops its replica alone (its space
 * freed at once); the copy sees it dropped and stops filling it. The rate limit counts the bytes as they are written.
 * {@link #finish} returns once every buffer handed in is written or its replica dropped; {@link #abort} ends the
 * thread at once, leaving what was not written unwritten (the builder deletes every replica it does not publish).
 */
final class ReplicaWriter {
    static final String THREAD_NAME = "pdla-replica-writer";

    /** A buffer to write at the end of the member's replica, or (bytes null) the release of a member the copy dropped. */
    private record Job(SharedOriginalCopy.Member member, ByteBuffer bytes) {
    }

    private final RateLimit rate;
    private final WriteBehind behind;
    private final Thread thread;
    /** Guarded by this, as are the members' spare buffers. */
    private final ArrayDeque<Job> jobs = new ArrayDeque<>();
    private boolean finishing;
    private boolean ended;
    private Throwable crashed;

    ReplicaWriter(RateLimit rate) {
        this(rate, null);
    }

    /** {@code behind}, when not null, is told of every write ({@link WriteBehind}). */
    ReplicaWriter(RateLimit rate, WriteBehind behind) {
        this.rate = rate;
        this.behind = behind;
        this.thread = new Thread(this::run, THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Hands the member's filled buffer in to be written and returns the member's other buffer, empty, once it is free
     * (waiting while it is still being written); null when the member has been dropped, which the copy then stops filling.
     */
    synchronized ByteBuffer exchange(SharedOriginalCopy.Member m, ByteBuffer full) throws IOException {
        hand(m, full);
        while (m.spares.isEmpty() && m.failure() == null) await();
        return m.failure() != null ? null : m.spares.poll();
    }

    /** Hands the member's last buffer in, without waiting for anything. */
    synchronized void handLast(SharedOriginalCopy.Member m, ByteBuffer last) {
        hand(m, last);
    }

    /** Frees what a member the copy dropped took (its {@code whenDropped}), after its writes already handed in. */
    synchronized void release(SharedOriginalCopy.Member m) {
        jobs.add(new Job(m, null));
        notifyAll();
    }

    private void hand(SharedOriginalCopy.Member m, ByteBuffer full) {
        full.flip();
        jobs.add(new Job(m, full));
        notifyAll();
    }

    private void await() throws IOException {
        if (ended) throw writerEnded();
        try {
            wait();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("replica build interrupted");
        }
        if (ended && crashed != null) throw writerEnded();
    }

    private IOException writerEnded() {
        return new IOException("the replica writer thread ended: " + (crashed != null ? crashed : "stopped"), crashed);
    }

    /** Waits until every buffer handed in is written (or its member dropped) and the thread has ended. */
    void finish() throws IOException {
        synchronized (this) {
            finishing = true;
            notifyAll();
            while (!ended) await();
            // never a replica short of bytes that were handed in: a writer that stopped early fails the copy
            if (crashed != null || !jobs.isEmpty()) throw writerEnded();
        }
        joinUninterruptibly();
    }

    /** Ends the thread now, whatever is left to write; returns once it has ended. */
    void abort() {
        thread.interrupt();
        joinUninterruptibly();
    }

    private void joinUninterruptibly() {
        joinUninterruptibly(thread);
    }

    /** Waits for {@code thread} to end, keeping an interrupt that came meanwhile for the caller (a copy's helper threads). */
    static void joinUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    private void run() {
        try {
            while (true) {
                Job job;
                synchronized (this) {
                    while (jobs.isEmpty() && !finishing) wait();
                    job = jobs.poll();
                    if (job == null) return;
                }
                perform(job);
                synchronized (this) {
                    if (job.bytes() != null) job.member().spares.add(job.bytes().clear());
                    notifyAll();
                }
                if (Thread.currentThread().isInterrupted()) return;
            }
        } catch (InterruptedException e) {
            // aborted: what is left is not written
        } catch (RuntimeException | Error e) {
            synchronized (this) {
                crashed = e;
            }
        } finally {
            synchronized (this) {
                ended = true;
                notifyAll();
            }
        }
    }

    private void perform(Job job) {
        SharedOriginalCopy.Member m = job.member();
        if (job.bytes() == null) {
            m.release();
            return;
        }
        if (m.failure() != null) return;
        try {
            int n = m.append(job.bytes());
            if (behind != null) behind.wrote(m.out, n);
            rate.copied(n);
        } catch (IOException e) {
            // an InterruptedIOException is not always an interrupt (a socket timeout is one): the thread's own status,
            // set by whoever interrupted it, is what ends it, so the other replicas' writes go on otherwise
            m.fail(e);
            m.release();
        } catch (RuntimeException e) {
            m.fail(new IOException(e.getClass().getSimpleName() + " writing replica of " + m.pattern.key().id() + ": " + e.getMessage(), e));
            m.release();
        }
    }
}
