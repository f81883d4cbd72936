package io.pdla.mpiio.romio;

import io.pdla.mpiio.File;
import io.pdla.mpiio.IoRequest;
import io.pdla.mpiio.MPIIO;
import mpi.Datatype;
import mpi.MPI;

/**
 * ROMIO's test/i_noncontig.c (two processes): a vector(SIZE/2, 1, 2) of ints displaced by the rank and
 * resized to SIZE ints, used as filetype and memory type with nonblocking I/O: noncontiguous in memory and
 * file (iwrite, iread_at), noncontiguous in memory only (iwrite_at, iread_at at rank * SIZE/2 ints), and
 * noncontiguous in file only (iwrite of SIZE ints, iread_at).
 */
public final class RomioINoncontigProgram {
    private static final int SIZE = 5000;

    public static void main(String[] argv) throws Exception {
        RomioCallsSupport.run(argv, "i_noncontig", t -> {
            if (t.np != 2) throw new IllegalStateException("Run this program on two processes");
            String filename = t.fname();
            int mynod = t.rank;
            int[] buf = new int[SIZE];
            Datatype typevec = Datatype.Vector(SIZE / 2, 1, 2, MPI.INT);
            // MPI_Type_create_struct(disp = mynod ints) then resized to [0, SIZE ints): MPJ's LB/UB markers;
            // MPJ counts struct displacements in elements of the base type
            Datatype newtype = Datatype.Struct(new int[]{1, 1, 1}, new int[]{0, mynod, SIZE},
                    new Datatype[]{MPI.LB, typevec, MPI.UB});
            newtype.Commit();
            int RW = MPIIO.MODE_CREATE | MPIIO.MODE_RDWR;

            // noncontiguous in memory, noncontiguous in file
            if (mynod == 0) RomioAtomicityProgram.deleteIgnoringNoSuchFile(filename);
            MPI.COMM_WORLD.Barrier();
            File fh = new File(MPI.COMM_WORLD, filename, RW);
            fh.setView(0, MPI.INT, newtype, "native", null);
            for (int i = 0; i < SIZE; i++) buf[i] = i + mynod * SIZE;
            IoRequest req = fh.iWrite(buf, 0, 1, newtype);
            req.waitFor();
            MPI.COMM_WORLD.Barrier();
            java.util.Arrays.fill(buf, -1);
            req = fh.iReadAt(0, buf, 0, 1, newtype);
            req.waitFor();
            checkInterleaved(t, buf);
            fh.close();
            MPI.COMM_WORLD.Barrier();

            // noncontiguous in memory, contiguous in file
            if (mynod == 0) RomioAtomicityProgram.deleteIgnoringNoSuchFile(filename);
            MPI.COMM_WORLD.Barrier();
            fh = new File(MPI.COMM_WORLD, filename, RW);
            for (int i = 0; i < SIZE; i++) buf[i] = i + mynod * SIZE;
            long at = (long) mynod * (SIZE / 2) * 4;
            req = fh.iWriteAt(at, buf, 0, 1, newtype);
            req.waitFor();
            MPI.COMM_WORLD.Barrier();
            java.util.Arrays.fill(buf, -1);
            req = fh.iReadAt(at, buf, 0, 1, newtype);
            req.waitFor();
            checkInterleaved(t, buf);
            fh.close();
            MPI.COMM_WORLD.Barrier();

            // contiguous in memory, noncontiguous in file
            if (mynod == 0) RomioAtomicityProgram.deleteIgnoringNoSuchFile(filename);
            MPI.COMM_WORLD.Barrier();
            fh = new File(MPI.COMM_WORLD, filename, RW);
            fh.setView(0, MPI.INT, newtype, "native", null);
            for (int i = 0; i < SIZE; i++) buf[i] = i + mynod * SIZE;
            req = fh.iWrite(buf, 0, SIZE, MPI.INT);
            req.waitFor();
            MPI.COMM_WORLD.Barrier();
            java.util.Arrays.fill(buf, -1);
            req = fh.iReadAt(0, buf, 0, SIZE, MPI.INT);
            req.waitFor();
            for (int i = 0; i < SIZE; i++) {
                if (buf[i] != i + mynod * SIZE) {
                    t.error("buf[" + i + "] is " + buf[i] + ", should be " + (i + mynod * SIZE));
                    break;
                }
            }
            fh.close();
        });
    }

    /** Rank 0 owns the even ints of the memory type, rank 1 the odd ones; the rest must stay -1. */
    private static void checkInterleaved(RomioCallsSupport t, int[] buf) {
        int mynod = t.rank;
        for (int i = 0; i < SIZE; i++) {
            boolean mine = mynod == 0 ? i % 2 == 0 : i % 2 == 1;
            int expect = mine ? i + mynod * SIZE : -1;
            if (buf[i] != expect) {
                t.error("buf[" + i + "] is " + buf[i] + ", should be " + expect);
                break;
            }
        }
    }
}
