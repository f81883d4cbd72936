package io.pdla.mpiio.romio;

import io.pdla.mpiio.File;
import io.pdla.mpiio.IoStatus;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

/**
 * ROMIO's test/status.c: a write's status gives MPI_Get_count and MPI_Get_elements of nints for MPI_INT.
 * Also the standard's rule ROMIO's test does not reach: a count that is not a whole number of the
 * datatype (a short read at end of file into a 3-int contiguous type) is MPI_UNDEFINED, while
 * MPI_Get_elements still counts the ints.
 */
public final class RomioStatusProgram {
    private static final int SIZE = 65536;

    public static void main(String[] argv) throws Exception {
        RomioCallsSupport.run(argv, "status", t -> {
            int rank = t.rank;
            int nints = SIZE / 4;
            int[] buf = new int[nints];
            String filename = t.fname() + "." + rank;
            File fh = new File(MPI.COMM_SELF, filename, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR);
            IoStatus status = fh.write(buf, 0, nints, MPI.INT);
            int count = status.getCount(MPI.INT);
            int elements = status.getElements(MPI.INT);
            if (rank == 0) {
                if (count != nints) t.error("count = " + count + ", should be " + nints);
                if (elements != nints) t.error("elements = " + elements + ", should be " + nints);
            }
            // beyond ROMIO: 3-int items read across end of file; nints is not a multiple of 3
            mpi.Datatype three = mpi.Datatype.Contiguous(3, MPI.INT);
            three.Commit();
            int items = nints / 3 + 1;
            int[] back = new int[items * 3];
            IoStatus s = fh.readAt(0, back, 0, items, three);
            if (s.getBytes() != 4L * nints) t.error("short read moved " + s.getBytes() + " bytes, expected " + 4L * nints);
            if (s.getCount(three) != MPI.UNDEFINED) t.error("getCount of a partial item = " + s.getCount(three) + ", should be MPI.UNDEFINED");
            if (s.getElements(three) != nints) t.error("getElements = " + s.getElements(three) + ", should be " + nints);
            fh.close();
        });
    }
}
