package io.pdla.mpiio.launch;

import mpi.MPI;

/** Prints what a rank JVM was started with: the property the test's PDLA_RANK_JAVA_OPTIONS set. */
public final class RankJavaOptionsProgram {
    public static void main(String[] argv) throws Exception {
        MPI.Init(argv);
        System.out.println("RANK " + MPI.COMM_WORLD.Rank() + " probe=" + System.getProperty("pdla.rank.probe"));
        MPI.Finalize();
    }
}
