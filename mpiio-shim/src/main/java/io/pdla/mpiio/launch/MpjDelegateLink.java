package io.pdla.mpiio.launch;

import io.pdla.delegate.service.DelegateFailedException;
import io.pdla.delegate.service.DelegateTransport;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import java.io.IOException;
import java.util.concurrent.locks.LockSupport;

/**
 * An application rank's side of the delegates: MPJ point-to-point on a duplicate of the full world (its own
 * context, so no message of the application can match), delegates being world ranks
 * {@code applications .. applications + delegates - 1}. A message is a length (one long) and then the bytes, so
 * that receivers post exact receives: MPJ's multicore Probe/Iprobe are not safe while other ranks' threads
 * send (a probe corrupted a HashMap of MPJ's under load). Every wait is bounded: a delegate that does not
 * take or answer a request within the time-out is marked dead, and that call and every later call that
 * needs it fail with a {@link DelegateFailedException} (an MPIIOException at the application) instead of hanging.
 */
final class MpjDelegateLink implements DelegateTransport {
    static final int TAG_REQUEST = 7101;
    static final int TAG_REPLY = 7102;
    /** Setting: how long a rank waits for a delegate before declaring it dead. */
    static final String ENV_TIMEOUT_MS = "PDLA_DELEGATE_TIMEOUT_MS";
    static final long DEFAULT_TIMEOUT_MS = 60_000;

    private final Intracomm link;
    private final int applications;
    private final int delegates;
    private final long timeoutNanos;
    private final boolean[] dead;

    MpjDelegateLink(Intracomm link, int applications, int delegates, long timeoutMillis) {
        this.link = link;
        this.applications = applications;
        this.delegates = delegates;
        this.timeoutNanos = timeoutMillis * 1_000_000L;
        this.dead = new boolean[delegates];
    }

    @Override
    public int delegates() {
        return delegates;
    }

    @Override
    public synchronized byte[][] exchange(int[] targets, byte[][] requests) throws IOException {
        for (int t : targets) {
            if (dead[t]) {
                SharedMemoryDelegateLink.reachLive(this, dead, targets, requests);
                alive(t);   // throws
            }
        }
        try {
            long deadline = System.nanoTime() + timeoutNanos;
            Request[] sends = new Request[2 * targets.length];
            long[][] replyLengths = new long[targets.length][1];
            Request[] heads = new Request[targets.length];
            for (int i = 0; i < targets.length; i++) {
                alive(targets[i]);
                int dest = applications + targets[i];
                heads[i] = link.Irecv(replyLengths[i], 0, 1, MPI.LONG, dest, TAG_REPLY);
                long[] length = {requests[i].length};
                sends[2 * i] = link.Isend(length, 0, 1, MPI.LONG, dest, TAG_REQUEST);
                sends[2 * i + 1] = link.Isend(requests[i], 0, requests[i].length, MPI.BYTE, dest, TAG_REQUEST);
            }
            // Replies are taken in the order they come, each body received as soon as its length is in: a
            // delegate sends a reply's body with a blocking send, so a rank that waited for delegate 0's reply
            // (held back until the whole group asked for a collective SYNC or CLOSE) before receiving delegate
            // 1's would block delegate 1 in that send, and with it the group member delegate 0 is waiting for.
            byte[][] replies = new byte[targets.length][];
            byte[][] bodies = new byte[targets.length][];
            Request[] bodyReceives = new Request[targets.length];
            int missing = targets.length, spins = 0;
            while (missing > 0) {
                boolean progress = false;
                int waitingFor = -1;
                for (int i = 0; i < targets.length; i++) {
                    if (replies[i] != null) continue;
                    if (bodyReceives[i] == null) {
                        if (heads[i].Test() != null) {
                            bodies[i] = new byte[Math.toIntExact(replyLengths[i][0])];
                            bodyReceives[i] = link.Irecv(bodies[i], 0, bodies[i].length, MPI.BYTE, applications + targets[i], TAG_REPLY);
                            progress = true;
                        }
                    } else if (bodyReceives[i].Test() != null) {
                        replies[i] = bodies[i];
                        missing--;
                        progress = true;
                    }
                    if (replies[i] == null && waitingFor < 0) waitingFor = targets[i];
                }
                if (progress) spins = 0;
                else if (missing > 0) pause(++spins, waitingFor, deadline);
            }
            for (int i = 0; i < targets.length; i++) {
                await(sends[2 * i], targets[i], deadline);
                await(sends[2 * i + 1], targets[i], deadline);
            }
            return replies;
        } catch (MPIException e) {
            throw new IOException("MPJ failed talking to the delegates: " + e.getMessage(), e);
        }
    }

    /**
     * Tells every delegate this rank is done (delegates stop when every application rank has said so); also
     * those taken for dead, which may only be slow: a really dead one lets the wait time out.
     */
    synchronized void bye() {
        byte[] bye = DelegateRank.BYE;
        long deadline = System.nanoTime() + timeoutNanos;
        for (int d = 0; d < delegates; d++) {
            try {
                long[] length = {bye.length};
                await(link.Isend(length, 0, 1, MPI.LONG, applications + d, TAG_REQUEST), d, deadline);
                await(link.Isend(bye, 0, bye.length, MPI.BYTE, applications + d, TAG_REQUEST), d, deadline);
            } catch (IOException | MPIException e) {
                System.err.println("pdla: delegate " + d + " did not take this rank's goodbye: " + e.getMessage());
            }
        }
    }

    private void alive(int delegate) throws DelegateFailedException {
        if (dead[delegate]) {
            throw new DelegateFailedException("I/O delegate " + delegate + " (world rank " + (applications + delegate)
                    + ") stopped answering earlier in this job; its cached data since the last sync is lost");
        }
    }

    private void await(Request r, int delegate, long deadline) throws MPIException, DelegateFailedException {
        int spins = 0;
        while (r.Test() == null) pause(++spins, delegate, deadline);
    }

    /** Spins briefly (replies usually come within microseconds), then sleeps in short steps until the deadline. */
    private void pause(int spins, int delegate, long deadline) throws DelegateFailedException {
        if (spins < 64) {
            Thread.onSpinWait();
            return;
        }
        if (System.nanoTime() > deadline) {
            dead[delegate] = true;
            throw new DelegateFailedException("I/O delegate " + delegate + " (world rank " + (applications + delegate)
                    + ") did not answer within " + timeoutNanos / 1_000_000 + " ms (" + ENV_TIMEOUT_MS
                    + "); it is taken for dead, and its cached data since the last sync is lost");
        }
        if (spins < 256) Thread.yield();
        else LockSupport.parkNanos(50_000);
    }
}
