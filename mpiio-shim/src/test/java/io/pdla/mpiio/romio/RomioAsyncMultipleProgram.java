package io.pdla.mpiio.romio;

import io.pdla.mpiio.File;
import io.pdla.mpiio.IoRequest;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

/**
 * ROMIO's test/async-multiple.c: each process writes its own file with NR_NBOPS outstanding
 * MPI_File_iwrite_at requests of one slice each, MPI_Waitall, then reads it back with as many
 * MPI_File_iread_at requests and checks every int.
 */
public final class RomioAsyncMultipleProgram {
    private static final int SIZE = 65536;
    private static final int NR_NBOPS = 32;

    public static void main(String[] argv) throws Exception {
        RomioCallsSupport.run(argv, "async-multiple", t -> {
            int rank = t.rank;
            int nints = SIZE / 4;
            int[] buf = new int[nints];
            for (int i = 0; i < nints; i++) buf[i] = rank * 100000 + i;
            String filename = t.fname() + "." + rank;
            int RW = MPIIO.MODE_CREATE | MPIIO.MODE_RDWR;
            File fh = new File(MPI.COMM_SELF, filename, RW);
            fh.setView(0, MPI.INT, MPI.INT, "native", null);
            IoRequest[] request = new IoRequest[NR_NBOPS];
            int slice = nints / NR_NBOPS;
            for (int i = 0; i < NR_NBOPS; i++) request[i] = fh.iWriteAt((long) slice * i, buf, slice * i, slice, MPI.INT);
            IoRequest.waitAll(request);
            fh.close();
            java.util.Arrays.fill(buf, 0);
            fh = new File(MPI.COMM_SELF, filename, RW);
            fh.setView(0, MPI.INT, MPI.INT, "native", null);
            for (int i = 0; i < NR_NBOPS; i++) request[i] = fh.iReadAt((long) slice * i, buf, slice * i, slice, MPI.INT);
            IoRequest.waitAll(request);
            fh.close();
            for (int i = 0; i < nints; i++) {
                if (buf[i] != rank * 100000 + i) t.error("error, read " + buf[i] + ", should be " + (rank * 100000 + i));
            }
        });
    }
}
