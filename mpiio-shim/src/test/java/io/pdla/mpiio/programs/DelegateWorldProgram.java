package io.pdla.mpiio.programs;

import mpi.MPI;

/**
 * Run with delegates: the application's world has only its own ranks (args[0] of them, numbered as in the
 * job), and collectives on it involve no delegate. Its own MPI.Init and MPI.Finalize are harmless.
 */
public final class DelegateWorldProgram {
    public static void main(String[] argv) throws Exception {
        MPI.Init(argv);
        Checks checks = new Checks();
        int size = MPI.COMM_WORLD.Size();
        checks.check("world size is the application's", () -> Checks.expectEquals(3, size, "COMM_WORLD.Size()"));
        checks.check("allreduce over the application's ranks", () -> {
            int[] one = {1}, sum = new int[1];
            MPI.COMM_WORLD.Allreduce(one, 0, sum, 0, 1, MPI.INT, MPI.SUM);
            Checks.expectEquals(size, sum[0], "sum of ones");
        });
        checks.done();
        MPI.Finalize();
    }
}
