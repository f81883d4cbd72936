package io.pdla.mpiio.romio;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

/**
 * ROMIO test/shared_fp.c: every rank writes 1024 ints (COUNT * rank + i) with write_shared, the shared
 * pointer is reset with seek_shared, every rank reads 1024 ints with read_shared; the sum over all ranks of
 * what was read must be the sum of 0 .. COUNT * nprocs - 1 (each record read exactly once, none torn).
 */
public final class RomioSharedFpProgram {
    static final int COUNT = 1024;

    public static void main(String[] argv) throws Exception {
        Romio.run("shared_fp", argv, t -> {
            int rank = t.rank(), nprocs = t.size();
            int[] buf = new int[COUNT];
            for (int i = 0; i < COUNT; i++) buf[i] = COUNT * rank + i;
            File fh = new File(MPI.COMM_WORLD, t.filename(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, new Info());
            fh.writeShared(buf, 0, COUNT, MPI.INT);
            java.util.Arrays.fill(buf, 0);
            MPI.COMM_WORLD.Barrier();
            fh.seekShared(0, MPIIO.SEEK_SET);
            fh.readShared(buf, 0, COUNT, MPI.INT);
            fh.close();
            checkSum(t, buf, nprocs);
        });
    }

    /** The C test's check, in int arithmetic as there (the expected sum fits an int for 4 ranks). */
    static void checkSum(Romio t, int[] buf, int nprocs) throws Exception {
        int sum = 0;
        for (int v : buf) sum += v;
        int[] in = {sum}, global = new int[1];
        MPI.COMM_WORLD.Allreduce(in, 0, global, 0, 1, MPI.INT, MPI.SUM);
        int want = ((COUNT * nprocs - 1) * (COUNT * nprocs)) / 2;
        if (global[0] != want) t.error("Error: sum " + sum + ", global_sum " + global[0] + ", " + want);
    }
}
