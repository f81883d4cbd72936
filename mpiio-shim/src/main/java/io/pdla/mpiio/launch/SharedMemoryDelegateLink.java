package io.pdla.mpiio.launch;

import io.pdla.delegate.service.DelegateFailedException;
import io.pdla.delegate.service.DelegateTransport;

import java.io.IOException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An application rank's side of the delegates when the whole job runs in one JVM: requests go into the
 * delegates' queues, replies come from this rank's own queue (see {@link SharedMailboxes}). Waits are bounded
 * as in {@link MpjDelegateLink}: a delegate that does not answer in time is taken for dead, and that call and
 * every later one that needs it fail with a {@link DelegateFailedException}; a late reply of a dead delegate
 * is dropped.
 */
final class SharedMemoryDelegateLink implements DelegateTransport {
    private final SharedMailboxes boxes;
    private final int rank;
    private final int applications;
    private final long timeoutNanos;
    private final boolean[] dead;

    SharedMemoryDelegateLink(SharedMailboxes boxes, int rank, int applications, int delegates, long timeoutMillis) {
        this.boxes = boxes;
        this.rank = rank;
        this.applications = applications;
        this.timeoutNanos = timeoutMillis * 1_000_000L;
        this.dead = new boolean[delegates];
    }

    @Override
    public int delegates() {
        return dead.length;
    }

    @Override
    public synchronized byte[][] exchange(int[] targets, byte[][] requests) throws IOException {
        for (int t : targets) {
            if (dead[t]) {
                reachLive(this, dead, targets, requests);
                alive(t);   // throws
            }
        }
        for (int i = 0; i < targets.length; i++) {
            java.util.function.BiConsumer<Integer, byte[]> serve = boxes.handler(targets[i]);
            if (serve != null) serve.accept(rank, requests[i]);   // on this thread, under the delegate's lock
            else boxes.requests[targets[i]].add(new Object[]{rank, requests[i]});
        }
        byte[][] replies = new byte[targets.length][];
        LinkedBlockingQueue<Object[]> mine = boxes.replies[rank];
        long deadline = System.nanoTime() + timeoutNanos;
        int missing = targets.length;
        try {
            while (missing > 0) {
                Object[] r = mine.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (r == null) throw timedOut(targets, replies);
                int from = (Integer) r[0];
                if (dead[from]) continue;   // a late answer to an earlier call
                for (int i = 0; i < targets.length; i++) {
                    if (targets[i] == from && replies[i] == null) {
                        replies[i] = (byte[]) r[1];
                        missing--;
                        break;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the I/O delegates", e);
        }
        return replies;
    }

    /** Asks no delegate: each keeps the set of files it has open where every rank of this JVM can read it. */
    @Override
    public boolean mayCache(String uri) {
        for (java.util.Set<String> open : boxes.openFiles) {
            if (open.contains(uri)) return true;
        }
        return false;
    }

    /**
     * Before a call that needs a dead delegate fails: the live ones still get their requests, and this rank waits for
     * their replies. A collective CLOSE is held at a delegate until every member of the open came, so a rank that
     * skipped the live delegates would keep the others waiting there for the whole time-out, and have them take a
     * live delegate for dead. Shared with {@link MpjDelegateLink}; {@code dead}: {@code link}'s delegates taken for dead.
     */
    static void reachLive(DelegateTransport link, boolean[] dead, int[] targets, byte[][] requests) {
        int n = 0;
        for (int t : targets) if (!dead[t]) n++;
        if (n == 0) return;
        int[] live = new int[n];
        byte[][] liveRequests = new byte[n][];
        for (int i = 0, k = 0; i < targets.length; i++) {
            if (dead[targets[i]]) continue;
            live[k] = targets[i];
            liveRequests[k++] = requests[i];
        }
        try {
            link.exchange(live, liveRequests);
        } catch (IOException e) {
            // the call fails anyway, naming the delegate that died first
        }
    }

    /** Tells every delegate this rank is done. */
    void bye() {
        for (LinkedBlockingQueue<Object[]> q : boxes.requests) q.add(new Object[]{rank, DelegateRank.BYE});
    }

    private DelegateFailedException timedOut(int[] targets, byte[][] replies) {
        int first = -1;
        for (int i = 0; i < targets.length; i++) {
            if (replies[i] == null) {
                dead[targets[i]] = true;
                if (first < 0) first = targets[i];
            }
        }
        return new DelegateFailedException("I/O delegate " + first + " (world rank " + (applications + first)
                + ") did not answer within " + timeoutNanos / 1_000_000 + " ms (" + MpjDelegateLink.ENV_TIMEOUT_MS
                + "); it is taken for dead, and its cached data since the last sync is lost");
    }

    private void alive(int delegate) throws DelegateFailedException {
        if (dead[delegate]) {
            throw new DelegateFailedException("I/O delegate " + delegate + " (world rank " + (applications + delegate)
                    + ") stopped answering earlier in this job; its cached data since the last sync is lost");
        }
    }
}
