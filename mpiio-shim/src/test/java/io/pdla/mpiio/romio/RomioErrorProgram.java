package io.pdla.mpiio.romio;

import io.pdla.mpiio.ErrorClass;
import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.MPI;

/**
 * ROMIO test/error.c: each process opens its own file and calls set_view with displacement -1, which
 * must fail with error class MPI_ERR_ARG ("Invalid displacement argument"); the C test checks the class on
 * rank 0 and that every rank got an error.
 */
public final class RomioErrorProgram {
    public static void main(String[] argv) throws Exception {
        Romio.run("error", argv, t -> {
            int rank = t.rank();
            String filename = t.filename() + "." + rank;
            File fh = new File(MPI.COMM_SELF, filename, MPIIO.MODE_CREATE + MPIIO.MODE_RDWR, new Info());
            try {
                fh.setView(-1, MPI.BYTE, MPI.BYTE, "native", new Info());
                t.error("File set view did not return an error");
            } catch (MPIIOException e) {
                System.out.println("rank " + rank + ": " + e.getMessage());
                if (rank == 0 && e.errorClass() != ErrorClass.ERR_ARG) t.error("Unexpected error message " + e.errorClass() + ": " + e.getMessage());
            }
            fh.close();
        });
    }
}
