package io.pdla.mpiio.programs;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import static io.pdla.mpiio.programs.Checks.expectBytes;
import static io.pdla.mpiio.programs.Checks.valueAt;

/**
 * Ranks write disjoint strided parts of one shared file (block {@code rank} of every round) through a
 * vector view, then each reads back the part of the next rank. Prints each rank's process id so a test
 * can tell threads of one JVM from separate JVMs. Argument: the shared file.
 */
public final class StridedSharedFileProgram {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        String f = args[0];
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        Checks c = new Checks();
        System.out.println("PID " + rank + " " + ManagementFactory.getRuntimeMXBean().getPid());
        int blk = 4096, rounds = 32;
        c.check("disjoint strided writes, then another rank's part read back", () -> {
            File fh = new File(MPI.COMM_WORLD, f, MPIIO.MODE_RDWR | MPIIO.MODE_CREATE);
            FileType stripe = Datatypes.vector(1, blk, blk).resized(0, (long) blk * np);
            fh.setView((long) rank * blk, FileType.bytes(1), stripe, "native", new Info());
            fh.writeAll(part(rank, np, blk, rounds), 0, blk * rounds, MPI.BYTE);
            fh.sync();
            int other = (rank + 1) % np;
            fh.setView((long) other * blk, FileType.bytes(1), stripe, "native", new Info());
            byte[] back = new byte[blk * rounds];
            fh.readAll(back, 0, back.length, MPI.BYTE);
            expectBytes(part(other, np, blk, rounds), back, "part of rank " + other);
            fh.close();
        });
        c.done();
        MPI.Finalize();
    }

    static byte[] part(int rank, int np, int blk, int rounds) {
        byte[] b = new byte[blk * rounds];
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < blk; i++) b[r * blk + i] = valueAt(((long) r * np + rank) * blk + i);
        }
        return b;
    }
}
