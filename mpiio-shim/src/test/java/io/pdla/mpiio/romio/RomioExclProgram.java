package io.pdla.mpiio.romio;

import io.pdla.mpiio.ErrorClass;
import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.MPI;

/**
 * ROMIO test/excl.c: rank 0 deletes the file (ERR_NO_SUCH_FILE ignored, any other class an error), then a
 * collective open with MODE_CREATE | MODE_EXCL must succeed and a second one must fail on every rank.
 */
public final class RomioExclProgram {
    public static void main(String[] argv) throws Exception {
        Romio.run("excl", argv, t -> {
            int rank = t.rank();
            String filename = t.filename();
            if (rank == 0) {
                try {
                    File.delete(filename);
                } catch (MPIIOException e) {
                    if (e.errorClass() != ErrorClass.ERR_NO_SUCH_FILE) t.error("Process " + rank + ": fails to delete file " + filename + ": " + e);
                }
            }
            MPI.COMM_WORLD.Barrier();
            int amode = MPIIO.MODE_CREATE | MPIIO.MODE_EXCL | MPIIO.MODE_RDWR;
            // this open should succeed (an exception is handle_error: the job aborts)
            new File(MPI.COMM_WORLD, filename, amode, new Info()).close();
            MPI.COMM_WORLD.Barrier();
            // this open should fail
            try {
                File fh = new File(MPI.COMM_WORLD, filename, amode, new Info());
                t.error("Process " + rank + ": open succeeded when it should have failed");
                fh.close();
            } catch (MPIIOException expected) {
                // the C test accepts any error here
            }
        });
    }
}
