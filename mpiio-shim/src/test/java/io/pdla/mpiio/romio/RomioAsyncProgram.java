package io.pdla.mpiio.romio;

import io.pdla.mpiio.File;
import io.pdla.mpiio.IoRequest;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

/**
 * ROMIO's test/async.c: each process writes its own file (filename.rank) with MPI_File_iwrite under an
 * int view, waits, reopens and reads it back with MPI_File_iread, and checks every int.
 */
public final class RomioAsyncProgram {
    private static final int SIZE = 65536;

    public static void main(String[] argv) throws Exception {
        RomioCallsSupport.run(argv, "async", t -> {
            int rank = t.rank;
            int nints = SIZE / 4;
            int[] buf = new int[nints];
            for (int i = 0; i < nints; i++) buf[i] = rank * 100000 + i;
            String filename = t.fname() + "." + rank;
            int RW = MPIIO.MODE_CREATE | MPIIO.MODE_RDWR;
            File fh = new File(MPI.COMM_SELF, filename, RW);
            fh.setView(0, MPI.INT, MPI.INT, "native", null);
            IoRequest request = fh.iWrite(buf, 0, nints, MPI.INT);
            request.waitFor();
            fh.close();
            // reopen the file and read the data back
            java.util.Arrays.fill(buf, 0);
            fh = new File(MPI.COMM_SELF, filename, RW);
            fh.setView(0, MPI.INT, MPI.INT, "native", null);
            request = fh.iRead(buf, 0, nints, MPI.INT);
            request.waitFor();
            fh.close();
            for (int i = 0; i < nints; i++) {
                if (buf[i] != rank * 100000 + i) t.error("error, read " + buf[i] + ", should be " + (rank * 100000 + i));
            }
        });
    }
}
