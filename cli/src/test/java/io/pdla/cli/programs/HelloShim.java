package io.pdla.cli.programs;

import io.pdla.mpiio.File;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

/** A minimal MPJ program using the shim: each rank writes its rank number at its offset; prints PDLA_APP. */
public final class HelloShim {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        int rank = MPI.COMM_WORLD.Rank();
        File f = new File(MPI.COMM_WORLD, args[0], MPIIO.MODE_WRONLY | MPIIO.MODE_CREATE);
        f.writeAtAll(rank, new byte[]{(byte) ('A' + rank)}, 0, 1, MPI.BYTE);
        f.close();
        System.out.println("rank " + rank + " app=" + io.pdla.intercept.Environment.get("PDLA_APP"));
        MPI.Finalize();
    }
}
