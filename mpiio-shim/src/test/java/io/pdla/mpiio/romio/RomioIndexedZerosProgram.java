package io.pdla.mpiio.romio;

import mpi.MPI;

/**
 * ROMIO test/indexed_zeros.c as it was added (MPICH commit 71f1dae1cd, "ROMIO test case demonstrating
 * indexed type bugs"), before it grew the hindexed and struct cases and was renamed types_with_zeros.c
 * (062e195182): two processes write through an MPI_Type_indexed filetype whose blocks of length 0 lead and
 * interleave, over a file pre-filled with -999; rank 0 checks that no int is still negative.
 */
public final class RomioIndexedZerosProgram {
    public static void main(String[] argv) throws Exception {
        Romio.run("indexed_zeros", argv, t -> {
            if (t.size() != 2) throw new IllegalStateException("Must run on 2 MPI processes");
            RomioTypesWithZerosProgram.testIndexedWithZeros(t, t.filename(), RomioTypesWithZerosProgram.Case.INDEXED);
        });
    }
}
