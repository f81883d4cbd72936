package io.pdla.mpiio.romio;

import io.pdla.mpiio.File;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

/**
 * ROMIO test/simple.c: each process creates its own file (name.rank) on MPI_COMM_SELF, writes 64 KiB of
 * ints with the individual pointer, closes, reopens, reads them back and checks every value.
 */
public final class RomioSimpleProgram {
    static final int SIZE = 65536;

    public static void main(String[] argv) throws Exception {
        Romio.run("simple", argv, t -> simple(t, new io.pdla.mpiio.Info()));
    }

    /** The body simple.c and psimple.c share; psimple differs only in calling the PMPI entry points. */
    static void simple(Romio t, io.pdla.mpiio.Info info) throws Exception {
        int rank = t.rank();
        int nints = SIZE / 4;
        int[] buf = new int[nints];
        for (int i = 0; i < nints; i++) buf[i] = rank * 100000 + i;
        String filename = t.filename() + "." + rank;

        File fh = new File(MPI.COMM_SELF, filename, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, info);
        fh.write(buf, 0, nints, MPI.INT);
        fh.close();

        java.util.Arrays.fill(buf, 0);
        fh = new File(MPI.COMM_SELF, filename, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, info);
        fh.read(buf, 0, nints, MPI.INT);
        fh.close();

        for (int i = 0; i < nints; i++) {
            if (buf[i] != rank * 100000 + i) t.error("Process " + rank + ": error, read " + buf[i] + ", should be " + (rank * 100000 + i));
        }
    }
}
