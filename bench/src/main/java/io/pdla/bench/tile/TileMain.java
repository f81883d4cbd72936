package io.pdla.bench.tile;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.Intracomm;
import mpi.MPI;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The MPJ program of {@code pdla bench tile}: per iteration, a collective write, an independent write, a
 * collective read and an independent read of every rank's tile (the order of the two variants alternates
 * between iterations), each timed IOR's way (barrier, clock, operation with open and close, barrier;
 * bytes over the latest end minus the earliest start). Every read is verified after its clock stopped.
 * Rank 0 prints one line per phase and the collective/independent ratios of the medians.
 */
public final class TileMain {
    private TileMain() {
    }

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Intracomm world = MPI.COMM_WORLD;
        int status = 0;
        try {
            run(world, Arrays.asList(args));
        } catch (IllegalArgumentException e) {
            if (world.Rank() == 0) System.err.println("pdla bench tile: " + e.getMessage());
            status = 2;
        } catch (AssertionError e) {
            System.err.println("pdla bench tile: verification failed: " + e.getMessage());
            status = 3;
        }
        int i = Arrays.asList(args).indexOf("--status-file");
        if (world.Rank() == 0 && i >= 0) Files.writeString(Path.of(args[i + 1]), Integer.toString(status));
        MPI.Finalize();
    }

    private enum Phase { WRITE_COLLECTIVE, WRITE_INDEPENDENT, READ_COLLECTIVE, READ_INDEPENDENT }

    static void run(Intracomm world, List<String> args) throws Exception {
        int np = world.Size(), rank = world.Rank();
        TileOptions o = TileOptions.parse(args, np);
        int tx = rank % o.nxTiles, ty = rank / o.nxTiles;
        int[] sizes = {o.nyTiles * o.tileY, o.nxTiles * o.tileX};
        FileType tile = Datatypes.subarray(sizes, new int[]{o.tileY, o.tileX}, new int[]{ty * o.tileY, tx * o.tileX}, Datatypes.Order.C, o.elementSize);
        byte[] data = new byte[(int) o.tileBytes()];
        for (int k = 0; k < data.length; k++) data[k] = (byte) (k * 31 + rank * 17 + 3);
        byte[] back = new byte[data.length];
        double[][] mibps = new double[Phase.values().length][o.iterations];
        if (rank == 0) {
            System.out.printf("pdla bench tile: %d ranks (%d x %d tiles of %d x %d elements of %d bytes), %s, hints %s%n",
                    np, o.nxTiles, o.nyTiles, o.tileX, o.tileY, o.elementSize, o.path, o.hints);
            System.out.printf("%-4s %-20s %12s %10s%n", "iter", "phase", "MiB/s", "seconds");
        }
        for (int it = -o.warmup; it < o.iterations; it++) {
            boolean collectiveFirst = Math.floorMod(it, 2) == 0;
            Phase[] order = collectiveFirst
                    ? new Phase[]{Phase.WRITE_COLLECTIVE, Phase.WRITE_INDEPENDENT, Phase.READ_COLLECTIVE, Phase.READ_INDEPENDENT}
                    : new Phase[]{Phase.WRITE_INDEPENDENT, Phase.WRITE_COLLECTIVE, Phase.READ_INDEPENDENT, Phase.READ_COLLECTIVE};
            for (Phase p : order) {
                boolean write = p == Phase.WRITE_COLLECTIVE || p == Phase.WRITE_INDEPENDENT;
                boolean coll = p == Phase.WRITE_COLLECTIVE || p == Phase.READ_COLLECTIVE;
                Arrays.fill(back, (byte) 0);
                world.Barrier();
                long start = System.nanoTime();
                File f = new File(world, o.path, write ? MPIIO.MODE_CREATE | MPIIO.MODE_WRONLY : MPIIO.MODE_RDONLY, info(o.hints));
                f.setView(0, FileType.bytes(1), tile, "native", new Info());
                if (write && coll) f.writeAll(data, 0, data.length, MPI.BYTE);
                else if (write) f.write(data, 0, data.length, MPI.BYTE);
                else if (coll) f.readAll(back, 0, back.length, MPI.BYTE);
                else f.read(back, 0, back.length, MPI.BYTE);
                if (write) f.sync();
                f.close();
                long end = System.nanoTime();
                long[] ends = new long[2 * np];
                world.Allgather(new long[]{start, end}, 0, 2, MPI.LONG, ends, 0, 2, MPI.LONG);
                if (!write && !Arrays.equals(data, back)) throw new AssertionError("rank " + rank + " read back a tile that differs, phase " + p);
                long first = Long.MAX_VALUE, last = Long.MIN_VALUE;
                for (int r = 0; r < np; r++) {
                    first = Math.min(first, ends[2 * r]);
                    last = Math.max(last, ends[2 * r + 1]);
                }
                double seconds = (last - first) / 1e9;
                double rate = o.tileBytes() * (double) np / (1 << 20) / seconds;
                if (it >= 0) mibps[p.ordinal()][it] = rate;
                if (rank == 0 && it >= 0) System.out.printf("%-4d %-20s %12.1f %10.4f%n", it, p.name().toLowerCase(), rate, seconds);
            }
        }
        if (rank == 0) {
            double wc = median(mibps[0]), wi = median(mibps[1]), rc = median(mibps[2]), ri = median(mibps[3]);
            System.out.printf("median MiB/s: write collective %.1f, independent %.1f; read collective %.1f, independent %.1f%n", wc, wi, rc, ri);
            System.out.printf("collective/independent ratio (medians): write %.2f, read %.2f%n", wc / wi, rc / ri);
            // the phases of one iteration run back to back: their ratio is not swung by a slow iteration or a drifting disk
            double[] w = pairedRatios(mibps[0], mibps[1]), r = pairedRatios(mibps[2], mibps[3]);
            System.out.printf("collective/independent per iteration (median, range): write %.2f (%.2f-%.2f), read %.2f (%.2f-%.2f)%n",
                    median(w), w[0], w[w.length - 1], median(r), r[0], r[r.length - 1]);
        }
    }

    private static Info info(Map<String, String> hints) {
        Info info = new Info();
        hints.forEach(info::set);
        return info;
    }

    /** Each iteration's ratio of the two phases, sorted. */
    private static double[] pairedRatios(double[] a, double[] b) {
        double[] q = new double[a.length];
        for (int i = 0; i < a.length; i++) q[i] = a[i] / b[i];
        Arrays.sort(q);
        return q;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
