package io.pdla.mpiio.programs;

import io.pdla.mpiio.File;
import io.pdla.mpiio.FileErrhandler;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.nio.file.Path;

/** Sets MPI_ERRORS_ARE_FATAL on a file and makes a bad call: the job must end there. Argument: a directory. */
public final class FatalErrhandlerProgram {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        int rank = MPI.COMM_WORLD.Rank();
        File fh = new File(MPI.COMM_SELF, Path.of(args[0]).resolve("fatal-" + rank).toString(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR);
        fh.setErrhandler(FileErrhandler.ERRORS_ARE_FATAL);
        MPI.COMM_WORLD.Barrier();
        if (rank == 0) {
            try {
                fh.readAt(-1, new byte[1], 0, 1, MPI.BYTE);
            } catch (Exception e) {
                System.out.println("RETURNED " + e);
            }
            System.out.println("NOT REACHED after a fatal error");
        }
        MPI.Finalize();
        System.out.println("FINALIZED " + rank);
        System.out.flush();
    }
}
