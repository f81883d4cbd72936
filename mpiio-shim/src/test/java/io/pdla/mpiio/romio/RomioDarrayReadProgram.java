package io.pdla.mpiio.romio;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

/**
 * ROMIO's test/darray_read.c (four processes): a 5x5 array of doubles, CYCLIC(3) in both dimensions over a
 * 2x2 grid in Fortran order (the block size that once broke ROMIO), written by rank 0, read by all through
 * the darray view with read_all, and compared with MPI_Pack of the array through the same darray. MPI_Pack
 * becomes a write through the darray as a memory type into a scratch file read back contiguously; the
 * packed values are also checked against the standard's definition of CYCLIC(3) computed here directly.
 */
public final class RomioDarrayReadProgram {
    private static final int NSIDE = 5, NBLOCK = 3, NPROC = 2;

    public static void main(String[] argv) throws Exception {
        RomioCallsSupport.run(argv, "darray_read", t -> {
            int size = t.np, rank = t.rank;
            if (size != NPROC * NPROC) throw new IllegalStateException("this program must run on " + NPROC * NPROC + " MPI processes");
            String filename = t.fname();
            Datatypes.Distribution[] distrib = {Datatypes.Distribution.CYCLIC, Datatypes.Distribution.CYCLIC};
            FileType darray = Datatypes.darray(size, rank, new int[]{NSIDE, NSIDE}, distrib, new int[]{NBLOCK, NBLOCK},
                    new int[]{NPROC, NPROC}, Datatypes.Order.FORTRAN, 8);
            int nelem = (int) (darray.sizeBytes() / 8);
            double[] data = new double[NSIDE * NSIDE];
            for (int i = 0; i < NSIDE * NSIDE; i++) data[i] = i;
            if (rank == 0) {
                File dfile = new File(MPI.COMM_SELF, filename, MPIIO.MODE_CREATE | MPIIO.MODE_WRONLY);
                dfile.write(data, 0, NSIDE * NSIDE, MPI.DOUBLE);
                dfile.close();
            }
            MPI.COMM_WORLD.Barrier();
            double[] ldata = new double[nelem], pdata = new double[nelem];
            // MPI_Pack(data, 1, darray): the darray as a memory type, packed into a scratch file
            String scratch = filename + ".pack." + rank;
            File p = new File(MPI.COMM_SELF, scratch, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR | MPIIO.MODE_DELETE_ON_CLOSE);
            p.writeAt(0, data, 0, 1, darray);
            p.readAt(0, pdata, 0, nelem, MPI.DOUBLE);
            p.close();
            // the standard's CYCLIC(3) on a 2x2 grid, ranks row-major, Fortran order: index i + j*NSIDE, i fastest
            int c0 = rank / NPROC, c1 = rank % NPROC, k = 0;
            double[] expected = new double[nelem];
            for (int j = 0; j < NSIDE; j++) {
                for (int i = 0; i < NSIDE; i++) {
                    if ((i / NBLOCK) % NPROC == c0 && (j / NBLOCK) % NPROC == c1) {
                        if (k < nelem) expected[k] = i + j * NSIDE;
                        k++;
                    }
                }
            }
            if (k != nelem) t.error("darray holds " + nelem + " elements, the distribution gives " + k);
            MPI.COMM_WORLD.Barrier();
            File fh = new File(MPI.COMM_WORLD, filename, MPIIO.MODE_RDONLY);
            fh.setView(0, Datatypes.element(8), darray, "native", null);
            fh.readAll(ldata, 0, nelem, MPI.DOUBLE);
            fh.close();
            for (int j = 0; j < nelem; j++) {
                if (pdata[j] != ldata[j]) t.error("at index " + j + ": packbuf " + pdata[j] + " filebuf " + ldata[j]);
                if (expected[j] != pdata[j]) t.error("at index " + j + ": packbuf " + pdata[j] + ", CYCLIC(3) gives " + expected[j]);
            }
        });
    }
}
