package io.pdla.mpiio.romio;

import mpi.MPI;

/**
 * What every ported ROMIO test of {@link RomioCallsTest} shares: ROMIO's error count summed over the ranks
 * (its {@code MPI_Allreduce} of {@code errs}), reported as the PASS/FAIL/DONE lines MpjTestSupport reads.
 * A failed MPI call (ROMIO's {@code MPI_CHECK}, which aborts) is a FAIL naming the call.
 */
final class RomioCallsSupport {
    interface Body {
        void run(RomioCallsSupport t) throws Exception;
    }

    final String name;
    final int rank;
    final int np;
    private int errs;

    private RomioCallsSupport(String name) throws Exception {
        this.name = name;
        this.rank = MPI.COMM_WORLD.Rank();
        this.np = MPI.COMM_WORLD.Size();
    }

    /** MPI_Init, the test body, the summed error count, MPI_Finalize. */
    static void run(String[] argv, String name, Body body) throws Exception {
        String[] args = MPI.Init(argv);
        RomioCallsSupport t = new RomioCallsSupport(name);
        try {
            body.run(t.withArgs(args));
        } catch (Throwable e) {
            t.error("aborted: " + e);
            e.printStackTrace(System.out);
        }
        int[] mine = {t.errs}, total = new int[1];
        MPI.COMM_WORLD.Allreduce(mine, 0, total, 0, 1, MPI.INT, MPI.SUM);
        System.out.println((total[0] == 0 ? "PASS " : "FAIL ") + t.rank + " romio " + name
                + (total[0] == 0 ? " (No Errors)" : ": Found " + total[0] + " errors"));
        System.out.println("DONE " + t.rank + " failures=" + (total[0] == 0 ? 0 : 1));
        System.out.flush();
        MPI.Finalize();
    }

    private String[] args = new String[0];

    private RomioCallsSupport withArgs(String[] a) {
        this.args = a;
        return this;
    }

    /** ROMIO's {@code -fname}: the first program argument. */
    String fname() {
        return args[0];
    }

    void error(String message) {
        errs++;
        System.out.println("romio " + name + " rank " + rank + ": " + message);
        System.out.flush();
    }

    int errors() {
        return errs;
    }

    /** MPI_Dims_create(nnodes, ndims): factors as balanced as possible, in non-increasing order. */
    static int[] dimsCreate(int nnodes, int ndims) {
        int[] dims = new int[ndims];
        java.util.Arrays.fill(dims, 1);
        int n = nnodes;
        java.util.List<Integer> primes = new java.util.ArrayList<>();
        for (int p = 2; (long) p * p <= n; p++) while (n % p == 0) { primes.add(p); n /= p; }
        if (n > 1) primes.add(n);
        primes.sort(java.util.Comparator.reverseOrder());
        for (int p : primes) { // largest factor onto the currently smallest dimension
            int smallest = 0;
            for (int i = 1; i < ndims; i++) if (dims[i] < dims[smallest]) smallest = i;
            dims[smallest] *= p;
        }
        java.util.Arrays.sort(dims);
        for (int i = 0, j = ndims - 1; i < j; i++, j--) { int x = dims[i]; dims[i] = dims[j]; dims[j] = x; }
        return dims;
    }
}
