package io.pdla.mpiio.romio;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

/**
 * ROMIO test/ordered_fp.c: shared_fp.c with write_ordered and read_ordered (collective, in rank order),
 * timed as in the C test; the sum over all ranks of what was read must be the sum of 0 .. COUNT * nprocs - 1.
 */
public final class RomioOrderedFpProgram {
    public static void main(String[] argv) throws Exception {
        Romio.run("ordered_fp", argv, t -> {
            int rank = t.rank(), nprocs = t.size(), count = RomioSharedFpProgram.COUNT;
            int[] buf = new int[count];
            for (int i = 0; i < count; i++) buf[i] = count * rank + i;
            File fh = new File(MPI.COMM_WORLD, t.filename(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, new Info());
            double wrStart = MPI.Wtime();
            fh.writeOrdered(buf, 0, count, MPI.INT);
            double wrTime = MPI.Wtime() - wrStart;
            java.util.Arrays.fill(buf, 0);
            MPI.COMM_WORLD.Barrier();
            double rdStart = MPI.Wtime();
            fh.seekShared(0, MPIIO.SEEK_SET);
            fh.readOrdered(buf, 0, count, MPI.INT);
            double rdTime = MPI.Wtime() - rdStart;
            fh.close();
            RomioSharedFpProgram.checkSum(t, buf, nprocs);
            if (rank == 0) System.out.printf("nprocs: %d bytes: %d write: %f read %f (rank 0)%n", nprocs, count * 4, wrTime, rdTime);
        });
    }
}
