import mpi.File;
import mpi.MPI;
import mpi.MPIException;

import java.util.Locale;

/**
 * Collective against independent access through Open MPI's own Java bindings (mpi.File: JNI over OMPIO), in
 * IOR's shape with one call per transfer: `writeAtAll`/`readAtAll` against `writeAt`/`readAt`, the same bytes
 * at the same offsets (transfer k of rank r in segment s at s*np*b + r*b + k*t), timed as pdla's IorEngine
 * times a phase (barrier, clock; open, transfers, close; latest end minus earliest start). Each iteration
 * runs the four phases, the collective ones first in even iterations and second in odd ones, so that the
 * ratio of an iteration compares phases taken moments apart.
 *
 * Arguments: BLOCK TRANSFER SEGMENTS ITERATIONS WARMUP PATH. Prints, on rank 0, one line per measured phase:
 * "ompi ITERATION write|read collective|independent MiB/s".
 */
public final class OmpiCollective {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        long block = Long.parseLong(args[0]);
        int transfer = Integer.parseInt(args[1]);
        int segments = Integer.parseInt(args[2]);
        int iterations = Integer.parseInt(args[3]);
        int warmup = Integer.parseInt(args[4]);
        String path = args[5];
        int rank = MPI.COMM_WORLD.getRank(), np = MPI.COMM_WORLD.getSize();
        byte[] buf = new byte[transfer];
        for (int i = 0; i < transfer; i++) buf[i] = (byte) (rank * 31 + i);
        for (int it = -warmup; it < iterations; it++) {
            boolean collectiveFirst = Math.floorMod(it, 2) == 0;
            for (boolean write : new boolean[]{true, false}) {
                for (int k = 0; k < 2; k++) {
                    boolean coll = (k == 0) == collectiveFirst;
                    double rate = phase(write, coll, block, transfer, segments, path, rank, np, buf);
                    if (rank == 0 && it >= 0) {
                        System.out.printf(Locale.ROOT, "ompi %d %s %s %.2f%n", it, write ? "write" : "read", coll ? "collective" : "independent", rate);
                    }
                }
            }
            MPI.COMM_WORLD.barrier();
            if (rank == 0) File.delete(path);
            MPI.COMM_WORLD.barrier();
        }
        MPI.Finalize();
    }

    /** One phase; returns MiB/s on every rank. */
    private static double phase(boolean write, boolean coll, long block, int transfer, int segments, String path, int rank, int np,
                                byte[] buf) throws MPIException {
        MPI.COMM_WORLD.barrier();
        double start = System.nanoTime() / 1e9;
        File f = new File(MPI.COMM_WORLD, path, write ? MPI.MODE_WRONLY | MPI.MODE_CREATE : MPI.MODE_RDONLY);
        long bytes = 0;
        long perBlock = block / transfer;
        for (int s = 0; s < segments; s++) {
            for (long k = 0; k < perBlock; k++) {
                long off = (long) s * np * block + rank * block + k * transfer;
                if (write && coll) bytes += f.writeAtAll(off, buf, transfer, MPI.BYTE).getCount(MPI.BYTE);
                else if (write) bytes += f.writeAt(off, buf, transfer, MPI.BYTE).getCount(MPI.BYTE);
                else if (coll) bytes += f.readAtAll(off, buf, transfer, MPI.BYTE).getCount(MPI.BYTE);
                else bytes += f.readAt(off, buf, transfer, MPI.BYTE).getCount(MPI.BYTE);
            }
        }
        f.close();
        double end = System.nanoTime() / 1e9;
        double[] t = {-start, end};
        MPI.COMM_WORLD.allReduce(t, 2, MPI.DOUBLE, MPI.MAX);
        long[] total = {bytes};
        MPI.COMM_WORLD.allReduce(total, 1, MPI.LONG, MPI.SUM);
        return total[0] / (1024.0 * 1024.0) / (t[1] + t[0]);
    }
}
