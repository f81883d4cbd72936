package io.pdla.mpiio;

import io.pdla.collective.RankExchange;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;


/**
 * The few collective steps the shim needs, on the file's private duplicate of the user's communicator
 * (so our messages can never match the application's), or, when every rank is a thread of this JVM, in
 * shared memory from the start (no MPJ message at all, so no duplicate is needed). Also the ROMIO recipe
 * for errors: every rank learns whether any rank failed, and all fail together.
 */
final class Collective {
    /** The tag of this class's all-gathers on the private duplicate (the two-phase exchange uses 7001-7004). */
    private static final int TAG_ALLGATHER = 7010;
    private final Intracomm comm;
    private final int rank;
    private final int size;
    /** Whether {@link #comm} is our duplicate, freed at close, or the application's own. */
    private final boolean privateDuplicate;
    private RankExchange shared; // when all ranks are threads of this JVM: from the start, or once the file is open

    /** Collectives through MPJ on {@code duplicate}, a private copy of the application's communicator. */
    Collective(Intracomm duplicate) throws MPIException {
        this(duplicate, true);
    }

    private Collective(Intracomm comm, boolean privateDuplicate) throws MPIException {
        this.comm = comm;
        this.rank = comm.Rank();
        this.size = comm.Size();
        this.privateDuplicate = privateDuplicate;
    }

    /** Every step through {@code exchange} (shared memory); {@code application} only names the group. */
    static Collective inSharedMemory(Intracomm application, RankExchange exchange) throws MPIException {
        Collective c = new Collective(application, false);
        c.shared = exchange;
        return c;
    }

    /** Frees the private duplicate, if there is one (close). */
    void free() throws MPIException {
        if (privateDuplicate) comm.Free();
    }

    int rank() {
        return rank;
    }

    int size() {
        return size;
    }

    Intracomm comm() {
        return comm;
    }

    /** Routes the steps below through {@code exchange} from now on if it is shared memory (MPJ's collectives cost ~100 µs each here). */
    void use(RankExchange exchange) {
        if (exchange.sharesMemory()) shared = exchange;
    }

    void barrier() throws MPIException {
        if (shared != null) {
            try {
                shared.barrier();
            } catch (java.io.IOException e) {
                throw new MPIIOException(ErrorClass.ERR_IO, "barrier: " + e.getMessage(), e);
            }
            return;
        }
        io.pdla.mpiio.collective.DirectCollectives.barrier(comm, TAG_ALLGATHER);
    }

    long[] allgather(long value) throws MPIException {
        return allgather(new long[]{value});
    }

    long[] allgather(long[] in) throws MPIException {
        if (shared != null) {
            try {
                return shared.allgather(in);
            } catch (java.io.IOException e) {
                throw new MPIIOException(ErrorClass.ERR_IO, "allgather: " + e.getMessage(), e);
            }
        }
        // one step of messages, not MPJ's Allgather: the agreement after every collective data call is one of these
        return io.pdla.mpiio.collective.DirectCollectives.allgather(comm, in, TAG_ALLGATHER);
    }

    long[] bcast(long[] values) throws MPIException {
        if (shared != null) {
            long[] all = allgather(values);
            System.arraycopy(all, 0, values, 0, values.length);
            return values;
        }
        comm.Bcast(values, 0, values.length, MPI.LONG, 0);
        return values;
    }


    /** ERR_NOT_SAME unless every rank passed the same value for {@code what}. */
    void requireSame(long value, String what, String file) throws MPIException {
        requireSame(new long[]{value}, new String[]{what}, file);
    }

    /** Several same-value checks in one all-gather (open checks amode and name together). */
    void requireSame(long[] values, String[] what, String file) throws MPIException {
        requireSame(allgather(values), values.length, what, file);
    }

    /**
     * The same-value checks on rows already gathered ({@link #allgather}, {@code k} values per rank): the first
     * {@code what.length} values of every row must equal rank 0's. Lets one meeting carry more than the checks.
     */
    void requireSame(long[] all, int k, String[] what, String file) throws MPIIOException {
        for (int r = 1; r < size; r++) {
            for (int i = 0; i < what.length; i++) {
                if (all[r * k + i] != all[i]) {
                    throw new MPIIOException(ErrorClass.ERR_NOT_SAME, file + ": " + what[i] + " differs across ranks (rank 0: "
                            + all[i] + ", rank " + r + ": " + all[r * k + i] + "), seen on rank " + rank);
                }
            }
        }
    }

    /**
     * Shares each rank's outcome; if any rank failed, every rank throws: the failing rank its own
     * exception, the others an exception of the same class naming the first failing rank.
     */
    void agree(MPIIOException local, String file) throws MPIException {
        agree(allgather(outcome(local)), 1, 0, local, file);
    }

    /** A rank's outcome as {@link #agree} shares it: 0 for success, else its error class + 1. */
    static long outcome(MPIIOException local) {
        return local == null ? 0 : local.errorClass().ordinal() + 1;
    }

    /** Whether value {@code at} of any rank's {@code k}-value row, already gathered ({@link #allgather}), is set (a vote). */
    boolean anyRank(long[] all, int k, int at) {
        for (int r = 0; r < size; r++) {
            if (all[r * k + at] != 0) return true;
        }
        return false;
    }

    /** {@link #agree} on outcomes already gathered: value {@code at} of each rank's {@code k}-value row. */
    void agree(long[] all, int k, int at, MPIIOException local, String file) throws MPIIOException {
        if (local != null) throw local;
        for (int r = 0; r < size; r++) {
            long code = all[r * k + at];
            if (code != 0) {
                ErrorClass ec = ErrorClass.values()[(int) code - 1];
                throw new MPIIOException(ec, file + ": collective operation failed on rank " + r + " (this is rank " + rank + ")");
            }
        }
    }
}
