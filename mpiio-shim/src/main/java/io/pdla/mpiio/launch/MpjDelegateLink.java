package io.pdla.mpiio.launch;

import io.pdla.delegate.service.DelegateFailedException;
import io.pdla.delegate.service.DelegateTransport;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

import java.io.IOException;
import java.util.concurrent.locks.LockSupport;

/**
 * An application rank's side of the delegates: MPJ point-to-point on a duplicate of the full world (its own
 * context, so no message of the application can match), delegates being world ranks
 * {@code applications .. applications + delegates - 1}. Every wait is bounded: a delegate that does not
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
        try {
            long deadline = System.nanoTime() + timeoutNanos;
            Request[] sends = new Request[targets.length];
            for (int i = 0; i < targets.length; i++) {
                alive(targets[i]);
                sends[i] = link.Isend(requests[i], 0, requests[i].length, MPI.BYTE, applications + targets[i], TAG_REQUEST);
            }
            byte[][] replies = new byte[targets.length][];
            for (int i = 0; i < targets.length; i++) {
                replies[i] = receive(targets[i], deadline);
                await(sends[i], targets[i], deadline);
            }
            return replies;
        } catch (MPIException e) {
            throw new IOException("MPJ failed talking to the delegates: " + e.getMessage(), e);
        }
    }

    /** Tells every live delegate this rank is done (delegates stop when every application rank has said so). */
    synchronized void bye() {
        byte[] bye = DelegateRank.BYE;
        long deadline = System.nanoTime() + timeoutNanos;
        for (int d = 0; d < delegates; d++) {
            if (dead[d]) continue;
            try {
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

    private byte[] receive(int delegate, long deadline) throws MPIException, DelegateFailedException {
        int source = applications + delegate;
        int spins = 0;
        while (true) {
            Status s = link.Iprobe(source, TAG_REPLY);
            if (s != null) {
                int n = s.Get_count(MPI.BYTE);
                byte[] reply = new byte[n];
                link.Recv(reply, 0, n, MPI.BYTE, source, TAG_REPLY);
                return reply;
            }
            pause(++spins, delegate, deadline);
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
