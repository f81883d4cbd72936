package io.pdla.bench.ior;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The benchmark loop, written once for every backend (IOR's TestIoSys / WriteOrReadSingle). Each
 * iteration runs, for each backend in turn (alternating which goes first): write phase, read phase, the
 * untimed -R check, and deletion unless -k. A phase is timed on every rank from before open to after close; rank 0 gets the earliest
 * start and the latest end over all ranks, so a slow rank cannot hide (IOR's ReduceIterResults).
 *
 * <p>Every rank runs this; {@code sink} is used on rank 0 only. All ranks return the same status. Error
 * lines go to {@code System.out}, the stream rank 0's results use: under the multicore device the ranks
 * share it and whole lines stay whole, where stdout and stderr merged by the launcher would interleave.
 */
public final class IorEngine {
    private final IorOptions o;
    private final Intracomm world;
    private final int rank;
    private final int np;
    private final Layout layout;
    private final List<IorBackend> backends;
    private final ResultSink sink;
    private StartLine startLine;
    private final int transfer;
    private final List<IterationPoint> points = new ArrayList<>();
    private final List<String> errors = new ArrayList<>();
    private long checked;
    private long bad;

    public IorEngine(IorOptions o, Intracomm world, List<IorBackend> backends, ResultSink sink) throws MPIException {
        this.o = o;
        this.world = world;
        this.rank = world.Rank();
        this.np = world.Size();
        this.layout = Layout.of(o, np);
        this.backends = List.copyOf(backends);
        this.sink = sink;
        this.transfer = Math.toIntExact(o.transferSize());
    }

    /** Runs all iterations; returns the report (complete on rank 0; errors and verification agreed everywhere). */
    public IorReport run(RunInfo info) throws MPIException, IOException {
        if (rank == 0) sink.header(info);
        try (StartLine line = StartLine.of(world)) {
            startLine = line;
            runIterations();
        } finally {
            startLine = null;
        }
        IorReport report = Reports.build(info, points, errors, o.verify(), checked, bad);
        if (rank == 0) sink.finish(report);
        return report;
    }

    private void runIterations() throws MPIException, IOException {
        outer:
        // negative iterations are the --warmup ones: run in full, reduced, but not recorded
        for (int it = -o.warmup(); it < o.iterations(); it++) {
            // odd iterations run the backends in reverse order, so neither always goes first
            List<IorBackend> order = new ArrayList<>(backends);
            if ((it & 1) != 0) java.util.Collections.reverse(order);
            for (IorBackend be : order) {
                if (o.write() && !record(phase(be, true, it))) break outer;
                if (o.read()) {
                    if (!record(phase(be, false, it))) break outer;
                    if (o.verify() && !verifyPass(be)) break outer;
                }
                if (!o.keep() && !agree(deleteFiles(be), be.name() + " delete")) break outer;
            }
        }
    }

    /** Result of one rank's phase before reduction. */
    private record Local(String backend, String op, int iteration, double start, double opened, double moved, double end,
                         long bytes, long ops, String error) {
    }

    private Local phase(IorBackend be, boolean write, int iteration) throws MPIException {
        int dataRank = write ? rank : layout.readRank(rank, o.reorder());
        String file = layout.fileName(o.path(), dataRank);
        byte[] buf = write ? Pattern.filled(rank, transfer) : new byte[transfer];
        long bytes = 0, ops = 0;
        String error = null;
        if (o.phaseDelay() > 0) {
            try {
                Thread.sleep(o.phaseDelay() * 1000L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        startLine.await();
        double start = now();
        double opened = start, moved = start;
        IorBackend.Handle h = null;
        try {
            h = be.open(file, write, !o.filePerProcess(), dataRank);
            opened = now();
            moved = opened;
            for (int seg = 0; seg < layout.segments() && error == null; seg++) {
                for (long k = 0; k < layout.transfersPerBlock(); k++) {
                    long off = layout.offset(dataRank, seg, k);
                    if (write) Pattern.stamp(buf, off);
                    long n = h.transfer(write, off, buf, transfer);
                    bytes += n;
                    ops++;
                    // keep going after a short transfer: collective calls must be made by every rank
                    if (n != transfer && error == null) error = "short " + (write ? "write" : "read") + " at offset " + off + ": " + n + " of " + transfer + " bytes";
                }
            }
            if (write && o.fsync()) h.fsync();
        } catch (IOException | RuntimeException e) {
            if (error == null) error = e.getMessage();
        } finally {
            moved = Math.max(moved, now());
            if (h != null) {
                try {
                    h.close();
                } catch (IOException e) {
                    if (error == null) error = e.getMessage();
                }
            }
        }
        double end = now();
        return new Local(be.name(), write ? "write" : "read", iteration, start, opened, moved, end, bytes, ops, error);
    }

    /** Reduces a phase across ranks (min start, max end, summed bytes) and reports it; false if any rank failed. */
    private boolean record(Local l) throws MPIException, IOException {
        double[] times = {-l.start, l.end, l.opened - l.start, l.moved - l.opened, l.end - l.moved};
        double[] maxTimes = new double[times.length];
        world.Allreduce(times, 0, maxTimes, 0, times.length, MPI.DOUBLE, MPI.MAX);
        long[] counts = {l.bytes, l.ops};
        long[] sums = new long[2];
        world.Allreduce(counts, 0, sums, 0, 2, MPI.LONG, MPI.SUM);
        if (!agree(l.error, l.backend + " " + l.op)) return false;
        if (l.iteration < 0) return true;
        IterationPoint p = IterationPoint.of(l.backend, l.op, l.iteration, sums[0], sums[1], maxTimes[1] + maxTimes[0],
                maxTimes[2], maxTimes[3], maxTimes[4]);
        points.add(p);
        if (rank == 0) sink.point(p);
        return true;
    }

    /** True when no rank has an error; otherwise every rank's error is printed and recorded. */
    private boolean agree(String localError, String what) throws MPIException {
        int[] flag = {localError == null ? 0 : 1};
        int[] any = new int[1];
        world.Allreduce(flag, 0, any, 0, 1, MPI.INT, MPI.SUM);
        if (any[0] == 0) return true;
        if (localError != null) System.out.println("ERROR: rank " + rank + ": " + what + ": " + localError);
        errors.add(what + " failed on " + any[0] + " rank(s)" + (localError != null ? "; rank " + rank + ": " + localError : ""));
        return false;
    }

    /**
     * The -R check (untimed, like IOR's checkRead): reads the data back again and compares every byte with
     * what its writer wrote. A few mismatches are printed per rank; the counts are summed over ranks.
     */
    private boolean verifyPass(IorBackend be) throws MPIException {
        int dataRank = layout.readRank(rank, o.reorder());
        String file = layout.fileName(o.path(), dataRank);
        byte[] expected = Pattern.filled(dataRank, transfer);
        byte[] buf = new byte[transfer];
        long myChecked = 0, myBad = 0;
        String error = null;
        IorBackend.Handle h = null;
        try {
            h = be.open(file, false, !o.filePerProcess(), dataRank);
            for (int seg = 0; seg < layout.segments(); seg++) {
                for (long k = 0; k < layout.transfersPerBlock(); k++) {
                    long off = layout.offset(dataRank, seg, k);
                    java.util.Arrays.fill(buf, (byte) 0);
                    long n = h.transfer(false, off, buf, transfer);
                    Pattern.stamp(expected, off);
                    int at = n < transfer ? (int) n : Pattern.mismatch(expected, buf, transfer);
                    myChecked++;
                    if (at >= 0) {
                        myBad++;
                        if (myBad <= 3) {
                            System.out.printf("ERROR: verify: rank %d, %s: transfer at offset %d (data of rank %d) differs at file offset %d: expected 0x%02x, read 0x%02x%s%n",
                                    rank, be.name(), off, dataRank, off + at, expected[at] & 0xff, buf[at] & 0xff,
                                    n < transfer ? " (short read: " + n + " bytes)" : "");
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            error = e.getMessage();
        } finally {
            if (h != null) {
                try {
                    h.close();
                } catch (IOException e) {
                    if (error == null) error = e.getMessage();
                }
            }
        }
        long[] mine = {myChecked, myBad};
        long[] all = new long[2];
        world.Allreduce(mine, 0, all, 0, 2, MPI.LONG, MPI.SUM);
        checked += all[0];
        bad += all[1];
        return agree(error, be.name() + " verify");
    }

    /** Rank 0 deletes the shared file; with -F each rank deletes its own. Returns this rank's error, if any. */
    private String deleteFiles(IorBackend be) throws MPIException {
        world.Barrier();
        String error = null;
        if (o.filePerProcess() || rank == 0) {
            try {
                be.delete(layout.fileName(o.path(), rank));
            } catch (IOException | RuntimeException e) {
                error = e.getMessage();
            }
        }
        world.Barrier();
        return error;
    }

    /**
     * Seconds on a clock shared by the ranks: the monotonic clock, common to all threads of the multicore
     * device and to all JVMs of one host (niodev across hosts would need IOR's clock-skew correction).
     */
    private static double now() {
        return System.nanoTime() / 1e9;
    }
}
