package io.pdla.mpiio;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;


/**
 * The few collective steps the shim needs, on the file's private duplicate of the user's communicator
 * (so our messages can never match the application's). Also the ROMIO recipe for errors: every rank
 * learns whether any rank failed, and all fail together.
 */
final class Collective {
    private final Intracomm comm;
    private final int rank;
    private final int size;

    Collective(Intracomm comm) throws MPIException {
        this.comm = comm;
        this.rank = comm.Rank();
        this.size = comm.Size();
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

    void barrier() throws MPIException {
        comm.Barrier();
    }

    long[] allgather(long value) throws MPIException {
        long[] in = {value};
        long[] out = new long[size];
        comm.Allgather(in, 0, 1, MPI.LONG, out, 0, 1, MPI.LONG);
        return out;
    }

    long[] bcast(long[] values) throws MPIException {
        comm.Bcast(values, 0, values.length, MPI.LONG, 0);
        return values;
    }


    /** ERR_NOT_SAME unless every rank passed the same value for {@code what}. */
    void requireSame(long value, String what, String file) throws MPIException {
        requireSame(new long[]{value}, new String[]{what}, file);
    }

    /** Several same-value checks in one all-gather (open checks amode and name together). */
    void requireSame(long[] values, String[] what, String file) throws MPIException {
        int k = values.length;
        long[] all = new long[k * size];
        comm.Allgather(values, 0, k, MPI.LONG, all, 0, k, MPI.LONG);
        for (int r = 1; r < size; r++) {
            for (int i = 0; i < k; i++) {
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
        long code = local == null ? 0 : local.errorClass().ordinal() + 1;
        long[] all = allgather(code);
        if (local != null) throw local;
        for (int r = 0; r < all.length; r++) {
            if (all[r] != 0) {
                ErrorClass ec = ErrorClass.values()[(int) all[r] - 1];
                throw new MPIIOException(ec, file + ": collective operation failed on rank " + r + " (this is rank " + rank + ")");
            }
        }
    }
}
