package io.pdla.mpiio.romio;

import mpi.Cartcomm;
import mpi.MPIException;

/**
 * MPI_Type_create_darray with MPI_DISTRIBUTE_BLOCK and the default distribution argument in every
 * dimension, C order, computed from the standard's definition (MPI 4.1, 5.1.4): the process grid is
 * row-major, dimension i of size g over p processes has blocks of ceil(g / p) elements and process
 * coordinate c owns [c * b, min((c + 1) * b, g)). Used for the expected data, independently of pdla's
 * {@link io.pdla.mpiio.Datatypes#darrayBlock}, which builds the filetype.
 */
final class StandardDarray {
    private StandardDarray() {
    }

    /** MPI_Dims_create(nprocs, ndims, {0,...}). */
    static int[] dims(int nprocs, int ndims) throws MPIException {
        int[] d = new int[ndims];
        Cartcomm.Dims_create(nprocs, d);
        return d;
    }

    /** The row-major global indices {@code rank} owns, in increasing order (the typemap's order). */
    static long[] ownedIndices(int rank, int[] gsizes, int[] psizes) {
        int nd = gsizes.length;
        int[] coords = new int[nd];
        int r = rank;
        for (int i = nd - 1; i >= 0; i--) {
            coords[i] = r % psizes[i];
            r /= psizes[i];
        }
        int[] lo = new int[nd], hi = new int[nd];
        long count = 1;
        for (int i = 0; i < nd; i++) {
            int b = (gsizes[i] + psizes[i] - 1) / psizes[i];
            lo[i] = Math.min(coords[i] * b, gsizes[i]);
            hi[i] = Math.min((coords[i] + 1) * b, gsizes[i]);
            count *= hi[i] - lo[i];
        }
        long[] out = new long[Math.toIntExact(count)];
        int[] idx = lo.clone();
        for (int k = 0; k < out.length; k++) {
            long g = 0;
            for (int i = 0; i < nd; i++) g = g * gsizes[i] + idx[i];
            out[k] = g;
            for (int i = nd - 1; i >= 0; i--) {
                if (++idx[i] < hi[i]) break;
                idx[i] = lo[i];
            }
        }
        return out;
    }
}
