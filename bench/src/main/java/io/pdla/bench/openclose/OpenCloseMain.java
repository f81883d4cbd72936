package io.pdla.bench.openclose;

import io.pdla.mpiio.File;
import io.pdla.mpiio.MPIIO;
import mpi.Intracomm;
import mpi.MPI;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@code pdla bench open-close}: the cost of one collective MPI_File_open followed by MPI_File_close of
 * one file on every rank, as IOR times a phase: barrier, clock, barrier; the time of an iteration is the
 * latest end minus the earliest start over all ranks. Open and close are also timed apart (slowest rank).
 * Arguments: {@code -i N} iterations (default 200), {@code --warmup N} (default 50), {@code -o PATH},
 * {@code --amode rdwr|rdonly}, {@code --status-file F} (written by rank 0: 0 ok, 1 failed).
 */
public final class OpenCloseMain {
    private OpenCloseMain() {
    }

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Intracomm world = MPI.COMM_WORLD;
        int status = 1;
        String statusFile = value(args, "--status-file", null);
        try {
            status = run(world, args);
        } finally {
            if (world.Rank() == 0 && statusFile != null) Files.writeString(Path.of(statusFile), Integer.toString(status));
            MPI.Finalize();
        }
    }

    static int run(Intracomm world, String[] args) throws Exception {
        int iterations = Integer.parseInt(value(args, "-i", "200"));
        int warmup = Integer.parseInt(value(args, "--warmup", "50"));
        String path = value(args, "-o", Path.of(System.getProperty("java.io.tmpdir"), "pdla-open-close.dat").toString());
        String amodeName = value(args, "--amode", "rdwr");
        int amode = switch (amodeName) {
            case "rdwr" -> MPIIO.MODE_RDWR | MPIIO.MODE_CREATE;
            case "rdonly" -> MPIIO.MODE_RDONLY;
            default -> throw new IllegalArgumentException("--amode must be rdwr or rdonly, was " + amodeName);
        };
        int rank = world.Rank(), np = world.Size();
        if (amode == MPIIO.MODE_RDONLY && rank == 0) Files.write(Path.of(path), new byte[4096]);
        world.Barrier();
        for (int i = 0; i < warmup; i++) openClose(world, path, amode);
        double[] total = new double[iterations], open = new double[iterations], close = new double[iterations];
        for (int i = 0; i < iterations; i++) {
            double[] t = openClose(world, path, amode);
            total[i] = t[0];
            open[i] = t[1];
            close[i] = t[2];
        }
        if (rank == 0) {
            Files.deleteIfExists(Path.of(path));
            System.out.printf(Locale.ROOT, "open-close: %d ranks, %s, %d iterations after %d warm-up, file %s%n", np, amodeName, iterations, warmup, path);
            System.out.println("ms per iteration      median      p10      p90      min      max");
            line("open + close", total);
            line("open (slowest rank)", open);
            line("close (slowest rank)", close);
        }
        return 0;
    }

    /** One iteration; returns {open+close over all ranks, slowest open, slowest close} in ms (same on every rank). */
    private static double[] openClose(Intracomm world, String path, int amode) throws Exception {
        world.Barrier();
        long start = System.nanoTime();
        world.Barrier();
        File f = new File(world, path, amode);
        long opened = System.nanoTime();
        f.close();
        long end = System.nanoTime();
        long[] in = {-start, end, opened - start, end - opened};
        long[] out = new long[4];
        world.Allreduce(in, 0, out, 0, 4, MPI.LONG, MPI.MAX);
        return new double[]{(out[1] + out[0]) / 1e6, out[2] / 1e6, out[3] / 1e6};
    }

    private static void line(String what, double[] ms) {
        double[] s = ms.clone();
        Arrays.sort(s);
        System.out.printf(Locale.ROOT, "%-20s %9.3f %8.3f %8.3f %8.3f %8.3f%n", what, pct(s, 50), pct(s, 10), pct(s, 90), s[0], s[s.length - 1]);
    }

    private static double pct(double[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(p / 100.0 * (sorted.length - 1) + 0.5))];
    }

    private static String value(String[] args, String name, String dflt) {
        for (int i = 0; i + 1 < args.length; i++) if (args[i].equals(name)) return args[i + 1];
        return dflt;
    }
}
