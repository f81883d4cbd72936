package io.pdla.mpiio.romio;

import io.pdla.mpiio.ErrorClass;
import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.Datatype;
import mpi.MPI;

/**
 * ROMIO test/noncontig_coll.c: noncontig.c with collective I/O (write_all, write_at_all, read_at_all) and no hints. Two processes; each writes through a
 * type that holds every other int of a 5000-int buffer, displaced by the rank (struct resized to the
 * whole buffer, see {@link NoncontigTypes}), in three cases: noncontiguous in memory and file (the type
 * as filetype and memory type), noncontiguous in memory only (default view, each rank writes one half
 * of the file), contiguous in memory and noncontiguous in file. Reads fill the buffer with -1 first and
 * check that the ints outside the type are still -1.
 */
public final class RomioNoncontigCollProgram {
    static final int SIZE = 5000;

    public static void main(String[] argv) throws Exception {
        Romio.run("noncontig_coll", argv, t -> {
            int nprocs = t.size(), mynod = t.rank();
            if (nprocs != 2) throw new IllegalStateException("Run this program on two processes");
            String filename = t.filename();
            int[] buf = new int[SIZE];
            Datatype newtype = NoncontigTypes.newtype(SIZE, 2, mynod);
            Info info = new Info();

            // noncontiguous in memory, noncontiguous in file
            deleteIgnoringMissing(mynod, filename);
            MPI.COMM_WORLD.Barrier();
            File fh = new File(MPI.COMM_WORLD, filename, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, info);
            fh.setView(0, MPI.INT, newtype, "native", info);
            for (int i = 0; i < SIZE; i++) buf[i] = i + mynod * SIZE;
            fh.writeAll(buf, 0, 1, newtype);
            MPI.COMM_WORLD.Barrier();
            java.util.Arrays.fill(buf, -1);
            fh.readAtAll(0, buf, 0, 1, newtype);
            checkEveryOther(t, buf, mynod);
            fh.close();
            MPI.COMM_WORLD.Barrier();

            // noncontiguous in memory, contiguous in file
            deleteIgnoringMissing(mynod, filename);
            MPI.COMM_WORLD.Barrier();
            fh = new File(MPI.COMM_WORLD, filename, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, info);
            for (int i = 0; i < SIZE; i++) buf[i] = i + mynod * SIZE;
            fh.writeAtAll((long) mynod * (SIZE / 2) * 4, buf, 0, 1, newtype);
            MPI.COMM_WORLD.Barrier();
            java.util.Arrays.fill(buf, -1);
            fh.readAtAll((long) mynod * (SIZE / 2) * 4, buf, 0, 1, newtype);
            checkEveryOther(t, buf, mynod);
            fh.close();
            MPI.COMM_WORLD.Barrier();

            // contiguous in memory, noncontiguous in file
            deleteIgnoringMissing(mynod, filename);
            MPI.COMM_WORLD.Barrier();
            fh = new File(MPI.COMM_WORLD, filename, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, info);
            fh.setView(0, MPI.INT, newtype, "native", info);
            for (int i = 0; i < SIZE; i++) buf[i] = i + mynod * SIZE;
            fh.writeAll(buf, 0, SIZE, MPI.INT);
            MPI.COMM_WORLD.Barrier();
            java.util.Arrays.fill(buf, -1);
            fh.readAtAll(0, buf, 0, SIZE, MPI.INT);
            for (int i = 0; i < SIZE; i++) {
                if (buf[i] != i + mynod * SIZE) t.error("Process " + mynod + ": buf " + i + " is " + buf[i] + ", should be " + (i + mynod * SIZE));
            }
            fh.close();

            if (mynod == 0) File.delete(filename);
            MPI.COMM_WORLD.Barrier();
        });
    }

    /** Rank 0 owns the even ints of the buffer, rank 1 the odd ones; the others must still be -1. */
    private static void checkEveryOther(Romio t, int[] buf, int mynod) {
        for (int i = 0; i < SIZE; i++) {
            boolean mine = (i % 2) == mynod;
            int want = mine ? i + mynod * SIZE : -1;
            if (buf[i] != want) t.error("Process " + mynod + ": buf " + i + " is " + buf[i] + ", should be " + want);
        }
    }

    /** ROMIO's MPI_File_delete that ignores MPI_ERR_NO_SUCH_FILE and fails on any other class. */
    static void deleteIgnoringMissing(int mynod, String filename) throws Exception {
        if (mynod != 0) return;
        try {
            File.delete(filename);
        } catch (MPIIOException e) {
            if (e.errorClass() != ErrorClass.ERR_NO_SUCH_FILE) throw e;
        }
    }
}
