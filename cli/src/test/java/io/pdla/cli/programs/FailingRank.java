package io.pdla.cli.programs;

import mpi.MPI;

/** Rank 1 throws after MPI.Init: `pdla run` must report the job as failed although MPJ's starter exits 0. */
public final class FailingRank {
    public static void main(String[] argv) throws Exception {
        MPI.Init(argv);
        int rank = MPI.COMM_WORLD.Rank();
        MPI.COMM_WORLD.Barrier();
        if (rank == 1) throw new IllegalStateException("rank 1 fails on purpose");
        MPI.Finalize();
    }
}
