package io.pdla.mpiio.launch;

import io.pdla.delegate.service.DelegateProtocol;
import io.pdla.delegate.service.DelegateServer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * A delegate rank's life: receive requests from any application rank on the delegates' communicator, serve
 * them one by one with a {@link DelegateServer}, and stop when every application rank said goodbye, after
 * writing back whatever is still dirty.
 */
final class DelegateRank {
    static final byte[] BYE = DelegateProtocol.simple(DelegateProtocol.Op.BYE, "", 0);
    /**
     * Test setting: the delegate stops answering after this many requests, as if it had died; it keeps
     * draining messages so the job can still end (a dead niodev JVM would take MPJ down with it).
     */
    static final String ENV_FAIL_AFTER = "PDLA_DELEGATE_FAIL_AFTER";

    private final Intracomm link;
    private final int applications;
    private final DelegateServer server;
    private final long failAfter;
    /** Non-null when the job runs in one JVM: requests and replies go through queues, not MPJ. */
    private final SharedMailboxes boxes;
    private final int index;

    /** {@code delegates}: the job's delegate count, which tells each delegate its pages of an unstriped file (read-ahead). */
    DelegateRank(Intracomm link, SharedMailboxes boxes, int applications, int delegates, int worldRank, long cacheBytes, long failAfter) {
        this.link = link;
        this.boxes = boxes;
        this.applications = applications;
        this.index = worldRank - applications;
        this.server = boxes != null ? new DelegateServer(cacheBytes, worldRank, delegates, boxes.openFiles[index])
                : new DelegateServer(cacheBytes, worldRank, delegates);
        this.failAfter = failAfter;
    }

    /** The next request: {source application rank, bytes}. */
    private Object[] next() throws MPIException {
        if (boxes != null) {
            try {
                return boxes.requests[index].take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("delegate " + index + " was interrupted while waiting for requests", e);
            }
        }
        long[] length = new long[1];
        Status s = link.Recv(length, 0, 1, MPI.LONG, MPI.ANY_SOURCE, MpjDelegateLink.TAG_REQUEST);
        int n = Math.toIntExact(length[0]);
        byte[] request = new byte[n];
        link.Recv(request, 0, n, MPI.BYTE, s.source, MpjDelegateLink.TAG_REQUEST);   // the same sender's next message
        return new Object[]{s.source, request};
    }

    private void reply(int destination, byte[] reply) {
        if (boxes != null) {
            boxes.replies[destination].add(new Object[]{index, reply});
            return;
        }
        try {
            long[] replyLength = {reply.length};
            link.Send(replyLength, 0, 1, MPI.LONG, destination, MpjDelegateLink.TAG_REPLY);
            link.Send(reply, 0, reply.length, MPI.BYTE, destination, MpjDelegateLink.TAG_REPLY);
        } catch (MPIException e) {
            throw new IllegalStateException("delegate cannot reply to application rank " + destination + ": " + e.getMessage(), e);
        }
    }

    private long served;
    private boolean playingDead;

    /**
     * One request, whichever thread runs it: one at a time, in the order they get the delegate's lock. Only
     * serving holds the lock; decoding the request before and handing out the replies after do not, so that an
     * application rank's thread, preempted on a machine with fewer cores than ranks, holds up the others as
     * briefly as possible.
     */
    private void serveOne(int source, byte[] request) {
        DelegateProtocol.Request r;
        try {
            r = DelegateProtocol.decode(request);
        } catch (java.io.IOException e) {
            reply(source, DelegateProtocol.failed("malformed request: " + e.getMessage()));
            return;
        }
        java.util.List<Object[]> out = new java.util.ArrayList<>(1);
        synchronized (this) {
            if (failAfter >= 0 && served >= failAfter) {
                playingDead = true;
                return;
            }
            served++;
            server.handle(source, r, (destination, reply) -> out.add(new Object[]{destination, reply}));
        }
        for (Object[] o : out) reply((Integer) o[0], (byte[]) o[1]);
    }

    /**
     * In a one-JVM job: lets application ranks run this delegate's requests on their own threads. Call before
     * the barrier that precedes the application's first request.
     */
    void registerHandler() {
        if (boxes != null) boxes.register(index, this::serveOne);
    }

    /** Returns whether the delegate served its whole job (false: it played dead). */
    boolean serve() throws MPIException {
        int byes = 0;
        while (byes < applications) {
            Object[] next = next();
            int source = (Integer) next[0];
            byte[] request = (byte[]) next[1];
            if (request.length > 0 && request[0] == DelegateProtocol.Op.BYE.ordinal()) {
                byes++;
                continue;
            }
            serveOne(source, request);
        }
        synchronized (this) {
            if (!playingDead) server.shutdown();
            return !playingDead;
        }
    }
}
