import mpi.Datatype;
import mpi.File;
import mpi.MPI;
import mpi.MPIException;

import java.util.Locale;

/**
 * The IOR-style access patterns of `pdla bench ior` through Open MPI's own Java bindings (mpi.File: JNI over
 * OMPIO), timed as pdla's IorEngine times them: barrier, clock; open, transfers, close; clock; the phase
 * time is the latest end minus the earliest start over all ranks, bandwidth the total bytes over it.
 * Shared file, transfer k of rank r in segment s at s*np*b + r*b + k*t (IOR's segmented layout).
 *
 * Arguments: BLOCK TRANSFER SEGMENTS ITERATIONS WARMUP PATH [fsync] [read-only] [keep] [collective] [view]. Prints per
 * measured phase (rank 0), after WARMUP untimed iterations: "ompi write|read MiB/s", "ompi-it IT write|read MiB/s"
 * (IT counts from 1), and "ompi-steps write|read OPEN TRANSFERS CLOSE", each step's seconds on its slowest rank, as
 * pdla's IorEngine reports its open, transfer and close columns. read-only: no write phase (the file exists: a cold
 * read of a file written by an earlier job); keep: the file is not deleted; collective: readAtAll/writeAtAll (IOR -c);
 * view: IOR -V, a file view set right after the open (etype one transfer; filetype the rank's block of each segment,
 * the type map of IOR's subarray, built from hindexed + resized because these bindings have no createSubarray), then
 * per transfer a seek of the individual pointer and read/write (readAll/writeAll with collective).
 */
public final class OmpiIor {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        long block = Long.parseLong(args[0]);
        int transfer = Integer.parseInt(args[1]);
        int segments = Integer.parseInt(args[2]);
        int iterations = Integer.parseInt(args[3]);
        int warmup = Integer.parseInt(args[4]);
        String path = args[5];
        java.util.List<String> flags = java.util.Arrays.asList(args).subList(6, args.length);
        boolean fsync = flags.contains("fsync");
        boolean readOnly = flags.contains("read-only");
        boolean keep = readOnly || flags.contains("keep");
        collective = flags.contains("collective");
        view = flags.contains("view");
        // delay=N: IOR's -d, N seconds' sleep before each phase
        delaySeconds = flags.stream().filter(f -> f.startsWith("delay=")).mapToInt(f -> Integer.parseInt(f.substring(6))).findFirst().orElse(0);
        int rank = MPI.COMM_WORLD.getRank(), np = MPI.COMM_WORLD.getSize();
        byte[] buf = new byte[transfer];
        for (int i = 0; i < transfer; i++) buf[i] = (byte) (rank * 31 + i);
        for (int it = -warmup; it < iterations; it++) {
            double[] w = readOnly ? null : phase(true, block, transfer, segments, path, rank, np, buf, fsync);
            double[] r = phase(false, block, transfer, segments, path, rank, np, buf, false);
            if (rank == 0 && it >= 0) {
                if (w != null) {
                    System.out.printf(Locale.ROOT, "ompi write %.2f%n", w[0]);
                    System.out.printf(Locale.ROOT, "ompi-it %d write %.2f%n", it + 1, w[0]);
                    System.out.printf(Locale.ROOT, "ompi-steps write %.6f %.6f %.6f%n", w[1], w[2], w[3]);
                }
                System.out.printf(Locale.ROOT, "ompi read %.2f%n", r[0]);
                System.out.printf(Locale.ROOT, "ompi-it %d read %.2f%n", it + 1, r[0]);
                System.out.printf(Locale.ROOT, "ompi-steps read %.6f %.6f %.6f%n", r[1], r[2], r[3]);
            }
            MPI.COMM_WORLD.barrier();
            if (rank == 0 && !keep) File.delete(path);
            MPI.COMM_WORLD.barrier();
        }
        MPI.Finalize();
    }

    private static boolean collective;
    private static boolean view;
    private static int delaySeconds;

    /** One phase; returns MiB/s and the slowest rank's open, transfer and close seconds, on every rank. */
    private static double[] phase(boolean write, long block, int transfer, int segments, String path, int rank, int np,
                                byte[] buf, boolean fsync) throws MPIException {
        if (delaySeconds > 0) {
            try {
                Thread.sleep(delaySeconds * 1000L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        MPI.COMM_WORLD.barrier();
        double start = System.nanoTime() / 1e9;
        File f = new File(MPI.COMM_WORLD, path, write ? MPI.MODE_WRONLY | MPI.MODE_CREATE : MPI.MODE_RDONLY);
        long perBlock = block / transfer;
        if (view) {
            Datatype etype = Datatype.createContiguous(transfer, MPI.BYTE);
            etype.commit();
            Datatype blockType = Datatype.createContiguous((int) perBlock, etype);
            Datatype placed = Datatype.createHIndexed(new int[]{1}, new int[]{Math.toIntExact(rank * block)}, blockType);
            Datatype filetype = Datatype.createResized(placed, 0, Math.toIntExact(np * block));
            filetype.commit();
            f.setView(0, etype, filetype, "native");
        }
        double opened = System.nanoTime() / 1e9;
        long bytes = 0;
        for (int s = 0; s < segments; s++) {
            for (long k = 0; k < perBlock; k++) {
                if (view) {
                    f.seek(s * perBlock + k, MPI.SEEK_SET);
                    if (write) bytes += (collective ? f.writeAll(buf, transfer, MPI.BYTE) : f.write(buf, transfer, MPI.BYTE)).getCount(MPI.BYTE);
                    else bytes += (collective ? f.readAll(buf, transfer, MPI.BYTE) : f.read(buf, transfer, MPI.BYTE)).getCount(MPI.BYTE);
                    continue;
                }
                long off = (long) s * np * block + rank * block + k * transfer;
                if (write) bytes += (collective ? f.writeAtAll(off, buf, transfer, MPI.BYTE) : f.writeAt(off, buf, transfer, MPI.BYTE)).getCount(MPI.BYTE);
                else bytes += (collective ? f.readAtAll(off, buf, transfer, MPI.BYTE) : f.readAt(off, buf, transfer, MPI.BYTE)).getCount(MPI.BYTE);
            }
        }
        if (fsync) f.sync();
        double moved = System.nanoTime() / 1e9;
        f.close();
        double end = System.nanoTime() / 1e9;
        double[] t = {-start, end, opened - start, moved - opened, end - moved};
        MPI.COMM_WORLD.allReduce(t, t.length, MPI.DOUBLE, MPI.MAX);
        long[] total = {bytes};
        MPI.COMM_WORLD.allReduce(total, 1, MPI.LONG, MPI.SUM);
        return new double[]{total[0] / (1024.0 * 1024.0) / (t[1] + t[0]), t[2], t[3], t[4]};
    }
}
