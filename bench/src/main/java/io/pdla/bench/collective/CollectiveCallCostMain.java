package io.pdla.bench.collective;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.collective.DirectCollectives;
import mpi.Intracomm;
import mpi.MPI;

import java.util.Arrays;
import java.util.Map;

/**
 * Where the time of a small collective call goes under niodev (bench/RESULTS-cluster.md): run as an MPJ job
 * ({@code pdla run -np N --dev niodev --machines FILE -- io.pdla.bench.collective.CollectiveCallCostMain FILE [CALLS]}),
 * rank 0 prints the median and p90 in microseconds of MPJ's own steps (barrier, an all-gather of 8 longs, ping-pong
 * of 8 bytes and of 16 KiB between rank 0 and rank 1 and between rank 0 and the last rank, on another host when the
 * machines file lists two or more) and of the shim's calls on IOR's 16 KiB strided pattern (each call one 16 KiB
 * block a rank at {@code (call * np + rank) * 16 KiB}): independent writeAt, collective writeAtAll and readAtAll as
 * they are decided by default (the blocks do not interleave: each rank does its own I/O), and with
 * {@code romio_cb_write/read=enable} (two-phase). Every call is timed on every rank; the medians are rank 0's.
 */
public final class CollectiveCallCostMain {
    private static final int BLOCK = 16384;

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Intracomm w = MPI.COMM_WORLD;
        int np = w.Size(), me = w.Rank();
        String path = args[0];
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 400;
        report(me, "barrier", time(calls, w::Barrier));
        long[] row = new long[8], all = new long[8 * np];
        report(me, "allgather 8 longs (MPJ's Allgather)", time(calls, () -> w.Allgather(row, 0, 8, MPI.LONG, all, 0, 8, MPI.LONG)));
        report(me, "allgather 8 longs (one step of messages, the shim's)", time(calls, () -> DirectCollectives.allgather(w, row, 61)));
        if (np > 1) {
            report(me, "ping-pong 8 B, rank 0 - rank 1", pingPong(w, 1, 8, calls));
            report(me, "ping-pong 8 B, rank 0 - rank " + (np - 1), pingPong(w, np - 1, 8, calls));
            report(me, "ping-pong 16 KiB, rank 0 - rank " + (np - 1), pingPong(w, np - 1, BLOCK, calls));
        }
        byte[] buf = new byte[BLOCK];
        Arrays.fill(buf, (byte) me);
        shim(w, path, Map.of(), calls, buf, "independent writeAt", false, false);
        shim(w, path, Map.of(), calls, buf, "writeAtAll (default: each rank its own I/O)", true, false);
        shim(w, path, Map.of(), calls, buf, "readAtAll (default)", true, true);
        Map<String, String> cb = Map.of("romio_cb_write", "enable", "romio_cb_read", "enable");
        shim(w, path, cb, calls, buf, "writeAtAll two-phase (romio_cb_write=enable)", true, false);
        shim(w, path, cb, calls, buf, "readAtAll two-phase (romio_cb_read=enable)", true, true);
        if (me == 0) new java.io.File(path).delete();
        MPI.Finalize();
    }

    private interface Step {
        void run() throws Exception;
    }

    private static long[] time(int calls, Step s) throws Exception {
        for (int i = 0; i < Math.min(100, calls); i++) s.run();   // warm-up: class loading, JIT, connections
        long[] t = new long[calls];
        for (int i = 0; i < calls; i++) {
            long t0 = System.nanoTime();
            s.run();
            t[i] = System.nanoTime() - t0;
        }
        return t;
    }

    /** Rank 0 and {@code peer} bounce a message; the others wait at the barrier after it. Times a round trip. */
    private static long[] pingPong(Intracomm w, int peer, int bytes, int calls) throws Exception {
        byte[] b = new byte[bytes];
        int me = w.Rank();
        long[] t = time(calls, () -> {
            if (me == 0) {
                w.Send(b, 0, bytes, MPI.BYTE, peer, 51);
                w.Recv(b, 0, bytes, MPI.BYTE, peer, 52);
            } else if (me == peer) {
                w.Recv(b, 0, bytes, MPI.BYTE, 0, 51);
                w.Send(b, 0, bytes, MPI.BYTE, 0, 52);
            }
        });
        w.Barrier();
        return t;
    }

    private static void shim(Intracomm w, String path, Map<String, String> hints, int calls, byte[] buf, String what, boolean collective,
                             boolean read) throws Exception {
        int np = w.Size(), me = w.Rank();
        File f = new File(w, path, MPIIO.MODE_RDWR | MPIIO.MODE_CREATE, new Info(hints));
        int[] call = {0};
        long[] t = time(calls, () -> {
            long offset = ((long) (call[0]++ % 1024) * np + me) * BLOCK;
            if (read) f.readAtAll(offset, buf, 0, BLOCK, MPI.BYTE);
            else if (collective) f.writeAtAll(offset, buf, 0, BLOCK, MPI.BYTE);
            else f.writeAt(offset, buf, 0, BLOCK, MPI.BYTE);
        });
        if (me == 0) {
            var s = f.collectiveStatistics();
            report(me, what, t);
            System.out.println("    rank 0's collective calls so far: two-phase " + s.twoPhaseCalls() + ", each rank its own I/O " + s.independentCalls()
                    + ", outcome agreed in the call " + s.agreedInCall() + ", rounds " + s.rounds());
        }
        f.close();
    }

    private static void report(int me, String what, long[] t) {
        if (me != 0) return;
        long[] s = t.clone();
        Arrays.sort(s);
        System.out.printf("%-55s median %8.1f us  p90 %8.1f us  (%d calls)%n", what, s[s.length / 2] / 1e3, s[(int) (s.length * 0.9)] / 1e3, s.length);
    }
}
