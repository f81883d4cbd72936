package io.pdla.mpiio.collective;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * All-gather and all-to-all of a few numbers in one step of point-to-point messages: every rank posts its receives
 * from every other rank, sends its part to each, and waits for all. MPJ Express's own {@code Allgather} took ~430 µs
 * between 4 rank JVMs on 2 namespace hosts where a message's round trip takes ~50 µs (bench/RESULTS-cluster.md,
 * {@code CollectiveCallCostMain}), and a small collective data call makes two such meetings: under niodev they, not
 * the bytes, bounded small collective calls. Beyond {@link #DIRECT_LIMIT} ranks the np - 1 messages a rank sends would
 * outweigh the steps MPJ's logarithmic algorithms save, and MPJ's own collectives are used.
 *
 * <p>Messages carry the caller's tag on the caller's communicator (a private duplicate, which no application message
 * can match); MPI's non-overtaking order between two ranks keeps successive calls apart.
 */
public final class DirectCollectives {
    /** Communicator sizes up to which the one-step exchange is used. */
    static final int DIRECT_LIMIT = 32;

    private DirectCollectives() {
    }

    /** Every rank gives {@code mine} (the same length everywhere); returns all of them, rank-major. */
    public static long[] allgather(Intracomm comm, long[] mine, int tag) throws MPIException {
        int size = comm.Size(), rank = comm.Rank(), k = mine.length;
        long[] all = new long[k * size];
        if (size > DIRECT_LIMIT) {
            comm.Allgather(mine, 0, k, MPI.LONG, all, 0, k, MPI.LONG);
            return all;
        }
        System.arraycopy(mine, 0, all, k * rank, k);
        if (size == 1 || k == 0) return all;
        Request[] pending = new Request[2 * (size - 1)];
        int n = 0;
        for (int s = 0; s < size; s++) if (s != rank) pending[n++] = comm.Irecv(all, k * s, k, MPI.LONG, s, tag);
        for (int d = 0; d < size; d++) if (d != rank) pending[n++] = comm.Isend(mine, 0, k, MPI.LONG, d, tag);
        Request.Waitall(pending);
        return all;
    }

    /** Every rank has entered before any leaves: an all-gather of one number (MPJ's Barrier took ~500 µs where this takes ~350). */
    public static void barrier(Intracomm comm, int tag) throws MPIException {
        if (comm.Size() > DIRECT_LIMIT) {
            comm.Barrier();
            return;
        }
        allgather(comm, new long[1], tag);
    }

    /** Personalised: {@code k} ints of {@code send} at {@code k * d} go to rank d; returns what each source sent, source-major. */
    public static int[] alltoall(Intracomm comm, int[] send, int k, int tag) throws MPIException {
        int size = comm.Size(), rank = comm.Rank();
        int[] recv = new int[k * size];
        if (size > DIRECT_LIMIT) {
            comm.Alltoall(send, 0, k, MPI.INT, recv, 0, k, MPI.INT);
            return recv;
        }
        System.arraycopy(send, k * rank, recv, k * rank, k);
        if (size == 1 || k == 0) return recv;
        Request[] pending = new Request[2 * (size - 1)];
        int n = 0;
        for (int s = 0; s < size; s++) if (s != rank) pending[n++] = comm.Irecv(recv, k * s, k, MPI.INT, s, tag);
        for (int d = 0; d < size; d++) if (d != rank) pending[n++] = comm.Isend(send, k * d, k, MPI.INT, d, tag);
        Request.Waitall(pending);
        return recv;
    }
}
