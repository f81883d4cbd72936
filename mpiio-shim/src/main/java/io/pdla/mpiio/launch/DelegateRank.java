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

    DelegateRank(Intracomm link, int applications, int worldRank, long cacheBytes, long failAfter) {
        this.link = link;
        this.applications = applications;
        this.server = new DelegateServer(cacheBytes, worldRank);
        this.failAfter = failAfter;
    }

    private void reply(int destination, byte[] reply) {
        try {
            long[] replyLength = {reply.length};
            link.Send(replyLength, 0, 1, MPI.LONG, destination, MpjDelegateLink.TAG_REPLY);
            link.Send(reply, 0, reply.length, MPI.BYTE, destination, MpjDelegateLink.TAG_REPLY);
        } catch (MPIException e) {
            throw new IllegalStateException("delegate cannot reply to application rank " + destination + ": " + e.getMessage(), e);
        }
    }

    /** Returns whether the delegate served its whole job (false: it played dead). */
    boolean serve() throws MPIException {
        int byes = 0;
        long served = 0;
        boolean playingDead = false;
        while (byes < applications) {
            long[] length = new long[1];
            Status s = link.Recv(length, 0, 1, MPI.LONG, MPI.ANY_SOURCE, MpjDelegateLink.TAG_REQUEST);
            int n = Math.toIntExact(length[0]);
            byte[] request = new byte[n];
            link.Recv(request, 0, n, MPI.BYTE, s.source, MpjDelegateLink.TAG_REQUEST);   // the same sender's next message
            if (n > 0 && request[0] == DelegateProtocol.Op.BYE.ordinal()) {
                byes++;
                continue;
            }
            if (failAfter >= 0 && served >= failAfter) {
                playingDead = true;
                continue;
            }
            served++;
            server.handle(s.source, request, this::reply);
        }
        if (!playingDead) server.shutdown();
        return !playingDead;
    }
}
