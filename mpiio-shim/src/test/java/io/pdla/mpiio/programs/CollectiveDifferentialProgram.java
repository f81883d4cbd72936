package io.pdla.mpiio.programs;

import io.pdla.delegate.partition.PartitionMethod;
import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.Datatype;
import mpi.MPI;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Collective (two-phase, forced on) against independent access, byte for byte, on random interleaved
 * views and memory datatypes, every partitioning method, cb_nodes 1..np, collective buffers smaller than
 * one piece, ranks with nothing to do. Args: directory, seed, trials. Every rank draws the same trial
 * parameters from the seed; the seed is printed so a failure can be replayed.
 */
public final class CollectiveDifferentialProgram {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path dir = Path.of(args[0]);
        long seed = Long.parseLong(args[1]);
        int trials = Integer.parseInt(args[2]);
        int np = MPI.COMM_WORLD.Size(), rank = MPI.COMM_WORLD.Rank();
        Checks checks = new Checks();
        if (rank == 0) System.out.println("seed " + seed + " np " + np);
        for (int t = 0; t < trials; t++) {
            Random rnd = new Random(seed * 1_000_003L + t);
            Trial trial = Trial.draw(rnd, np, t);
            checks.check("collective-write trial " + t + " " + trial, () -> writeTrial(dir, trial, rank, np));
            checks.check("collective-read trial " + t + " " + trial, () -> readTrial(dir, trial, rank, np));
        }
        checks.done();
        MPI.Finalize();
    }

    /** One trial's parameters, identical on every rank. */
    record Trial(int index, PartitionMethod method, int cbNodes, long cbBuffer, long stripe, int servers, boolean stripeIo,
                 long tile, int tiles, long[][] writeBlocks, long[][] readBlocks, boolean intMemory, int memGap) {
        static Trial draw(Random rnd, int np, int index) {
            PartitionMethod m = PartitionMethod.values()[rnd.nextInt(PartitionMethod.values().length)];
            int cbNodes = rnd.nextInt(np + 1); // 0: no cb_nodes hint, aggregators chosen per call by data size
            long[] buffers = {1, 7, 64, 1000, 4096, 65536, 1 << 20};
            long drawn = buffers[rnd.nextInt(buffers.length)];
            long stripe = new long[]{16, 100, 512, 4096, 65536}[rnd.nextInt(5)];
            int servers = 1 + rnd.nextInt(5);
            boolean stripeIo = rnd.nextInt(4) == 0;
            boolean ints = rnd.nextBoolean();
            // A tile of the file cut into segments; each segment goes to one rank (writes: disjoint) or to
            // any subset of ranks (reads: overlapping views). Segments are whole ints when memory is int[].
            int unit = ints ? 4 : 1;
            // one trial in six has pieces 128 times larger, so that aggregators' windows reach the size at which a
            // page-cache store fills them through a mapping (256 KiB) and that path is compared too
            int scale = rnd.nextInt(6) == 0 ? 128 : 1;
            long tile = unit * scale * (1 + rnd.nextInt(3000));
            // Scaled trials take their buffer from {64 KiB, 1 MiB} only: every window is one exchange among the
            // ranks, and a 1- or 7-byte buffer over a tile of megabytes made millions of them (a trial of hours,
            // seen as a job timeout with seed 650740515); small buffers are covered by the unscaled trials.
            long cb = scale == 1 ? drawn : rnd.nextBoolean() ? 1 << 20 : 65536;
            List<List<long[]>> w = new ArrayList<>(), r = new ArrayList<>();
            for (int i = 0; i < np; i++) {
                w.add(new ArrayList<>());
                r.add(new ArrayList<>());
            }
            boolean someRankIdle = rnd.nextInt(3) == 0 && np > 1;
            int idle = rnd.nextInt(np);
            for (long off = 0; off < tile; ) {
                long len = Math.min(tile - off, unit * scale * (1 + rnd.nextInt(rnd.nextBoolean() ? 8 : 600)));
                int owner = rnd.nextInt(np + 1); // np = a hole
                if (owner < np && !(someRankIdle && owner == idle)) w.get(owner).add(new long[]{off, len});
                for (int k = 0; k < np; k++) if (rnd.nextInt(3) == 0 && !(someRankIdle && k == idle)) r.get(k).add(new long[]{off, len});
                off += len;
            }
            int tiles = 1 + rnd.nextInt(4);
            return new Trial(index, m, cbNodes, cb, stripe, servers, stripeIo, tile, tiles, flat(w), flat(r), ints, rnd.nextInt(3));
        }

        private static long[][] flat(List<List<long[]>> perRank) {
            long[][] out = new long[perRank.size()][];
            for (int k = 0; k < out.length; k++) {
                List<long[]> l = perRank.get(k);
                out[k] = new long[2 * l.size()];
                for (int i = 0; i < l.size(); i++) {
                    out[k][2 * i] = l.get(i)[0];
                    out[k][2 * i + 1] = l.get(i)[1];
                }
            }
            return out;
        }

        Info hints(boolean collectiveBuffering) {
            Info info = new Info();
            info.set("romio_cb_write", collectiveBuffering ? "enable" : "disable");
            info.set("romio_cb_read", collectiveBuffering ? "enable" : "disable");
            if (cbNodes > 0) {
                info.set("cb_nodes", String.valueOf(cbNodes));
            } else {
                info.set("pdla_bytes_per_aggregator", String.valueOf(Math.max(1, tile / 3))); // about three aggregators per tile
            }
            info.set("cb_buffer_size", String.valueOf(cbBuffer));
            info.set("striping_unit", String.valueOf(stripe));
            info.set("striping_factor", String.valueOf(servers));
            info.set("pdla_fd_partition", method.hintValue());
            info.set("pdla_fd_stripe_io", String.valueOf(stripeIo));
            info.set("pdla_min_fd_size", "1");
            info.set("pdla_cb_exchange", exchangeMode()); // across JVMs only; alternate the two transports
            return info;
        }

        String exchangeMode() {
            return index % 2 == 0 ? "point_to_point" : "alltoallv";
        }

        @Override
        public String toString() {
            return method.hintValue() + (cbNodes > 0 ? " cb_nodes=" + cbNodes : " aggregators by data") + " cb_buffer_size=" + cbBuffer + " stripe=" + stripe + "x" + servers
                    + (stripeIo ? " stripe-io" : "") + " " + exchangeMode() + " tile=" + tile + "x" + tiles + (intMemory ? " int[] gap " + memGap : " byte[]");
        }
    }

    private static FileType view(long[] blocks, long tile) {
        int n = blocks.length / 2;
        long[] len = new long[Math.max(1, n)], disp = new long[Math.max(1, n)];
        if (n == 0) return null;
        for (int i = 0; i < n; i++) {
            disp[i] = blocks[2 * i];
            len[i] = blocks[2 * i + 1];
        }
        return Datatypes.indexed(len, disp).resized(0, tile);
    }

    private static boolean anyBytes(long[][] perRank) {
        return Arrays.stream(perRank).anyMatch(b -> b.length > 0);
    }

    private static long bytesOf(long[] blocks) {
        long b = 0;
        for (int i = 1; i < blocks.length; i += 2) b += blocks[i];
        return b;
    }

    private static void writeTrial(Path dir, Trial t, int rank, int np) throws Exception {
        Path coll = dir.resolve("w-coll-" + t.index), ind = dir.resolve("w-ind-" + t.index);
        Memory m = Memory.of(t, bytesOf(t.writeBlocks[rank]) * t.tiles, rank);
        write(coll, t, rank, m, true);
        write(ind, t, rank, m, false);
        MPI.COMM_WORLD.Barrier();
        byte[] a = Files.readAllBytes(coll), b = Files.readAllBytes(ind);
        Checks.expectBytes(b, a, "file written collectively vs independently");
    }

    private static void write(Path file, Trial t, int rank, Memory m, boolean collective) throws Exception {
        File f = new File(MPI.COMM_WORLD, file.toString(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, t.hints(collective));
        FileType ft = view(t.writeBlocks[rank], t.tile);
        f.setView(0, FileType.bytes(1), ft == null ? FileType.bytes(1) : ft, "native", new Info());
        f.writeAll(m.buffer, 0, m.count, m.type);
        if (collective && anyBytes(t.writeBlocks)) {
            Checks.expectEquals(1, f.collectiveStatistics().twoPhaseCalls(), "two-phase collective writes (" + f.collectiveStatistics() + ")");
        }
        f.close();
    }

    private static void readTrial(Path dir, Trial t, int rank, int np) throws Exception {
        Path file = dir.resolve("w-ind-" + t.index); // written above; its tail may end before the views do (EOF)
        long mine = bytesOf(t.readBlocks[rank]) * t.tiles;
        Memory a = Memory.of(t, mine, -1), b = Memory.of(t, mine, -1);
        long gotA = read(file, t, rank, a, true), gotB = read(file, t, rank, b, false);
        Checks.expectEquals(gotB, gotA, "bytes read collectively vs independently");
        if (a.buffer instanceof int[] x) Checks.expect(Arrays.equals(x, (int[]) b.buffer), "int buffers read collectively and independently differ");
        else Checks.expectBytes((byte[]) b.buffer, (byte[]) a.buffer, "buffer read collectively vs independently");
    }

    private static long read(Path file, Trial t, int rank, Memory m, boolean collective) throws Exception {
        File f = new File(MPI.COMM_WORLD, file.toString(), MPIIO.MODE_RDONLY, t.hints(collective));
        FileType ft = view(t.readBlocks[rank], t.tile);
        f.setView(0, FileType.bytes(1), ft == null ? FileType.bytes(1) : ft, "native", new Info());
        long got = f.readAll(m.buffer, 0, m.count, m.type).getBytes();
        if (collective && anyBytes(t.readBlocks)) {
            Checks.expectEquals(1, f.collectiveStatistics().twoPhaseCalls(), "two-phase collective reads (" + f.collectiveStatistics() + ")");
        }
        f.close();
        return got;
    }

    /** The memory side: bytes, ints, or ints with gaps between them (a vector memory datatype). */
    private record Memory(Object buffer, Datatype type, int count) {
        static Memory of(Trial t, long bytes, int fillRank) throws Exception {
            if (!t.intMemory) {
                byte[] b = new byte[(int) bytes];
                if (fillRank >= 0) for (int i = 0; i < b.length; i++) b[i] = (byte) (i * 13 + fillRank * 101 + 7);
                return new Memory(b, MPI.BYTE, b.length);
            }
            int k = (int) (bytes / 4);
            int stride = 1 + t.memGap;
            int[] a = new int[k == 0 ? 0 : (k - 1) * stride + 1];
            if (fillRank >= 0) for (int i = 0; i < a.length; i++) a[i] = i * 7919 + fillRank * 1_000_003;
            if (t.memGap == 0 || k == 0) return new Memory(a, MPI.INT, k);
            Datatype v = Datatype.Vector(k, 1, stride, MPI.INT);
            v.Commit();
            return new Memory(a, v, 1);
        }
    }

}
