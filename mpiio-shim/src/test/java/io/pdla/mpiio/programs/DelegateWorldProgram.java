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
        checks.check("atomic mode is refused on a delegated file, on every rank", () -> {
            long[] id = {System.nanoTime()};
            MPI.COMM_WORLD.Bcast(id, 0, 1, MPI.LONG, 0);
            java.nio.file.Path path = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "pdla-delegate-atomic-" + id[0]);
            io.pdla.mpiio.File f = new io.pdla.mpiio.File(MPI.COMM_WORLD, path.toString(), io.pdla.mpiio.MPIIO.MODE_CREATE | io.pdla.mpiio.MPIIO.MODE_RDWR);
            io.pdla.mpiio.ErrorClass got = null;
            try {
                f.setAtomicity(true);
            } catch (io.pdla.mpiio.MPIIOException e) {
                got = e.errorClass();
                Checks.expect(e.getMessage().contains("delegates"), "the message says why: " + e.getMessage());
            }
            Checks.expect(got == io.pdla.mpiio.ErrorClass.ERR_UNSUPPORTED_OPERATION, "setAtomicity(true) through delegates: " + got);
            Checks.expect(!f.getAtomicity(), "atomic mode stays off");
            f.close();
            MPI.COMM_WORLD.Barrier();
            if (MPI.COMM_WORLD.Rank() == 0) java.nio.file.Files.deleteIfExists(path);
        });
        checks.done();
        MPI.Finalize();
    }
}
