package io.pdla.cli.programs;

import mpi.MPI;

/**
 * Rank 1 alone fails after a first barrier, by an exception ("throw") or by {@code System.exit(3)} ("exit"); the
 * other ranks wait for it in a second barrier that it never reaches, as a job's ranks wait in MPI for a peer that
 * died. Argument: throw | exit.
 */
public final class LoneFailingRank {
    public static void main(String[] argv) throws Exception {
        String[] rest = MPI.Init(argv);
        String how = rest.length > 0 ? rest[0] : "throw";
        int rank = MPI.COMM_WORLD.Rank();
        MPI.COMM_WORLD.Barrier();
        if (rank == 1) {
            if (how.equals("exit")) System.exit(3);
            throw new IllegalStateException("rank 1 fails alone on purpose");
        }
        MPI.COMM_WORLD.Barrier();
        MPI.Finalize();
    }
}
