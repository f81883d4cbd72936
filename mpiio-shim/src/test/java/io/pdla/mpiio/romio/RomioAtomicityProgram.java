package io.pdla.mpiio.romio;

import io.pdla.mpiio.ErrorClass;
import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.IoStatus;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.Datatype;
import mpi.MPI;

/**
 * ROMIO's test/atomicity.c: in atomic mode, rank 0 writes 10s over a file of 0s while every other rank
 * reads the same range concurrently; each reader must see all old or all new values. First contiguous,
 * then through a vector(BUFSIZE, 1, 2) filetype with small data-sieving buffers.
 */
public final class RomioAtomicityProgram {
    private static final int BUFSIZE = 10000; // no. of integers

    public static void main(String[] argv) throws Exception {
        RomioCallsSupport.run(argv, "atomicity", t -> {
            String filename = t.fname();
            int mynod = t.rank;
            int[] writebuf = new int[BUFSIZE], readbuf = new int[BUFSIZE];
            int RW = MPIIO.MODE_CREATE | MPIIO.MODE_RDWR;

            // test atomicity of contiguous accesses; initialize file to all zeros
            if (mynod == 0) {
                deleteIgnoringNoSuchFile(filename);
                File fh = new File(MPI.COMM_SELF, filename, RW);
                fh.write(writebuf, 0, BUFSIZE, MPI.INT);
                fh.close();
            }
            MPI.COMM_WORLD.Barrier();
            java.util.Arrays.fill(writebuf, 10);
            java.util.Arrays.fill(readbuf, 20);
            File fh = new File(MPI.COMM_WORLD, filename, RW);
            try {
                fh.setAtomicity(true);
            } catch (MPIIOException e) {
                t.error("Atomic mode not supported on this file system: " + e.getMessage());
                fh.close();
                return;
            }
            if (!fh.getAtomicity()) t.error("getAtomicity is false after setAtomicity(true)");
            MPI.COMM_WORLD.Barrier();
            // process 0 writes and others concurrently read: all old values or all new ones
            if (mynod == 0) fh.write(writebuf, 0, BUFSIZE, MPI.INT);
            else {
                fh.read(readbuf, 0, BUFSIZE, MPI.INT);
                checkAllOldOrAllNew(t, readbuf);
            }
            fh.close();
            MPI.COMM_WORLD.Barrier();

            // repeat the same test with a noncontiguous filetype
            Datatype newtype = Datatype.Vector(BUFSIZE, 1, 2, MPI.INT);
            newtype.Commit();
            Info info = new Info();
            // ROMIO sets these for testing purposes only
            info.set("ind_rd_buffer_size", "1209");
            info.set("ind_wr_buffer_size", "1107");
            if (mynod == 0) {
                File.delete(filename);
                File f0 = new File(MPI.COMM_SELF, filename, RW, info);
                java.util.Arrays.fill(writebuf, 0);
                f0.setView(0, MPI.INT, newtype, "native", info);
                f0.write(writebuf, 0, BUFSIZE, MPI.INT);
                f0.close();
            }
            MPI.COMM_WORLD.Barrier();
            java.util.Arrays.fill(writebuf, 10);
            java.util.Arrays.fill(readbuf, 20);
            fh = new File(MPI.COMM_WORLD, filename, RW, info);
            fh.setAtomicity(true);
            fh.setView(0, MPI.INT, newtype, "native", info);
            MPI.COMM_WORLD.Barrier();
            if (mynod == 0) fh.write(writebuf, 0, BUFSIZE, MPI.INT);
            else {
                IoStatus s = fh.read(readbuf, 0, BUFSIZE, MPI.INT);
                if (s.getCount() == BUFSIZE) checkAllOldOrAllNew(t, readbuf);
                else t.error("read " + s.getCount() + " ints, expected " + BUFSIZE);
            }
            fh.close();
            MPI.COMM_WORLD.Barrier();
        });
    }

    private static void checkAllOldOrAllNew(RomioCallsSupport t, int[] readbuf) {
        int first = readbuf[0];
        if (first != 0 && first != 10) {
            t.error("readbuf[0] is " + first + ", should be either 0 or 10");
            return;
        }
        for (int i = 1; i < BUFSIZE; i++) {
            if (readbuf[i] != first) {
                t.error("readbuf[" + i + "] is " + readbuf[i] + ", should be " + first);
                return;
            }
        }
    }

    static void deleteIgnoringNoSuchFile(String filename) throws MPIIOException {
        try {
            File.delete(filename);
        } catch (MPIIOException e) {
            if (e.errorClass() != ErrorClass.ERR_NO_SUCH_FILE) throw e;
        }
    }
}
