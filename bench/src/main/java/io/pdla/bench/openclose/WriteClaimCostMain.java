package io.pdla.bench.openclose;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.Intracomm;
import mpi.MPI;

import java.util.Arrays;

/**
 * Open and write-claim time of a writer on a replicated file (bench/cluster-write-claim.sh, bench/RESULTS-cluster.md), an
 * MPJ program run twice with the same command, so that the second run's patterns are the first's:
 * {@code pdla run ... -- io.pdla.bench.openclose.WriteClaimCostMain FILE BLOCK SEGMENTS ITERATIONS}, with
 * {@value #PHASE}=trace under {@code --trace} (rank r reads blocks r, r + np, ... of FILE: a strided pattern per rank
 * for {@code pdla analyze} and {@code pdla daemon} to replicate), then {@value #PHASE}=measure under
 * {@code --interceptors redirect} with {@code PDLA_CATALOG}. Each measured iteration is a write session: a collective
 * open (MODE_RDWR; redirect looks the file's replicas up in the catalog), the rank's first write into its replica's
 * region (redirect begins the session and claims the replicas it touches, one catalog transaction each, before the
 * write proceeds), a second write (no claim), and the close (which ends the session). Rank 0 prints, per step, the
 * median, p10 and p90 over the iterations of the slowest rank's time in milliseconds.
 */
public final class WriteClaimCostMain {
    static final String PHASE = "PDLA_BENCH_PHASE";

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Intracomm w = MPI.COMM_WORLD;
        int np = w.Size(), me = w.Rank();
        String path = args[0];
        int block = Integer.parseInt(args[1]), segments = Integer.parseInt(args[2]), iterations = Integer.parseInt(args[3]);
        String phase = String.valueOf(io.pdla.intercept.Environment.get(PHASE));   // pdla run hands PDLA_* variables to every host
        byte[] buf = new byte[block];
        if (phase.equals("trace")) {
            File f = new File(w, path, MPIIO.MODE_RDONLY, new Info());
            for (int s = 0; s < segments; s++) f.readAt(((long) s * np + me) * block, buf, 0, block, MPI.BYTE);
            f.close();
        } else if (phase.equals("measure")) {
            measure(w, path, buf, iterations);
        } else {
            throw new IllegalArgumentException(PHASE + " must be trace or measure, was '" + phase + "'");
        }
        MPI.Finalize();
    }

    private static void measure(Intracomm w, String path, byte[] buf, int iterations) throws Exception {
        int np = w.Size(), me = w.Rank(), block = buf.length;
        String[] steps = {"open (collective, MODE_RDWR)", "first write (session + claim)", "second write", "close (ends the session)"};
        long[][] slowest = new long[steps.length][iterations];
        Arrays.fill(buf, (byte) (me + 1));
        for (int i = 0; i < iterations; i++) {
            long[] t = new long[steps.length];
            w.Barrier();
            long t0 = System.nanoTime();
            File f = new File(w, path, MPIIO.MODE_RDWR, new Info());
            long t1 = System.nanoTime();
            f.writeAt((long) me * block, buf, 0, block, MPI.BYTE);
            long t2 = System.nanoTime();
            f.writeAt(((long) np + me) * block, buf, 0, block, MPI.BYTE);
            long t3 = System.nanoTime();
            f.close();
            long t4 = System.nanoTime();
            t[0] = t1 - t0;
            t[1] = t2 - t1;
            t[2] = t3 - t2;
            t[3] = t4 - t3;
            long[] all = new long[steps.length * np];
            w.Allgather(t, 0, steps.length, MPI.LONG, all, 0, steps.length, MPI.LONG);
            for (int s = 0; s < steps.length; s++) {
                long max = 0;
                for (int r = 0; r < np; r++) max = Math.max(max, all[r * steps.length + s]);
                slowest[s][i] = max;
            }
        }
        if (me != 0) return;
        System.out.printf("write sessions of %d ranks on a replicated file, %d iterations (slowest rank, ms):%n", np, iterations);
        for (int s = 0; s < steps.length; s++) {
            long[] v = slowest[s].clone();
            Arrays.sort(v);
            System.out.printf("  %-32s median %8.2f  p10 %8.2f  p90 %8.2f%n", steps[s], v[v.length / 2] / 1e6, v[v.length / 10] / 1e6,
                    v[Math.min(v.length - 1, (int) (v.length * 0.9))] / 1e6);
        }
    }
}
