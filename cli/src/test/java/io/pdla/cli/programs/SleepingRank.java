package io.pdla.cli.programs;

import mpi.MPI;

/** An MPJ program whose ranks say they are up, then sleep (bounded: 120 s): a job for stopping its launcher. */
public final class SleepingRank {
    public static void main(String[] argv) throws Exception {
        MPI.Init(argv);
        System.out.println("SLEEPING rank " + MPI.COMM_WORLD.Rank());
        System.out.flush();
        Thread.sleep(120_000);
        MPI.Finalize();
    }
}
