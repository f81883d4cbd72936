package io.pdla.patterns.synth;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.access.TraceRecord;
import io.pdla.patterns.InMemoryTraceSource;
import io.pdla.patterns.TracedJob;
import io.pdla.patterns.RuntimeInfo;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeSet;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Traces of the benchmarks the analyzer must recognise, generated from the benchmarks' own offset formulas
 * (formulas.md section 5), streamed without materializing. Request k of a rank starts at {@code k * 1 ms}.
 */
public final class SyntheticTraces {
    public static final long INTERVAL_NANOS = 1_000_000;

    private SyntheticTraces() {
    }

    /** Offset of a rank's k-th request. */
    @FunctionalInterface
    public interface OffsetFormula {
        long offset(int rank, long k);
    }

    /** Size of a rank's k-th request (workloads whose request size follows a sequence, e.g. alternating sizes). */
    @FunctionalInterface
    public interface SizeFormula {
        long size(long k);
    }

    public static TracedJob job(String command, int nprocs, String path) {
        return new TracedJob(command, nprocs, Map.of(0, path), Map.of(), RuntimeInfo.unknown());
    }

    /** {@code n} requests of {@code size} bytes per rank at the given offsets, one file (id 0). */
    public static InMemoryTraceSource formula(String command, int nprocs, IoOp op, long size, long n, OffsetFormula f) {
        return formula(command, nprocs, op, n, k -> size, f);
    }

    /** {@code n} requests per rank, the k-th of {@code sizes.size(k)} bytes at {@code f.offset(rank, k)}, one file (id 0). */
    public static InMemoryTraceSource formula(String command, int nprocs, IoOp op, long n, SizeFormula sizes, OffsetFormula f) {
        TracedJob job = job(command, nprocs, "/data/" + command.split(" ")[0] + ".dat");
        TreeSet<Integer> ranks = IntStream.range(0, nprocs).boxed().collect(Collectors.toCollection(TreeSet::new));
        IntFunction<Iterator<TraceRecord>> gen = r -> new Iterator<>() {
            long k = 0;

            @Override
            public boolean hasNext() {
                return k < n;
            }

            @Override
            public TraceRecord next() {
                if (k >= n) throw new NoSuchElementException();
                long t = k * INTERVAL_NANOS;
                TraceRecord rec = new TraceRecord(r, 0, op, Positioning.EXPLICIT_OFFSET, false, f.offset(r, k), sizes.size(k), t,
                        t + INTERVAL_NANOS / 2);
                k++;
                return rec;
            }
        };
        return new InMemoryTraceSource(job, ranks, gen);
    }

    /** IOR shared file: off = i*P*b + r*b + j*t, s segments of b/t transfers (src/ior.c). */
    public static InMemoryTraceSource ior(int nprocs, long block, long transfer, long segments, IoOp op) {
        long perSeg = block / transfer;
        return formula("ior -b " + block + " -t " + transfer + " -s " + segments, nprocs, op, transfer, perSeg * segments,
                (r, k) -> (k / perSeg) * nprocs * block + r * block + (k % perSeg) * transfer);
    }

    /** IOR file per process (-F): each rank its own file, off = i*b + j*t. File id = rank. */
    public static InMemoryTraceSource iorFilePerProcess(int nprocs, long block, long transfer, long segments, IoOp op) {
        long perSeg = block / transfer;
        long n = perSeg * segments;
        Map<Integer, String> files = IntStream.range(0, nprocs).boxed()
                .collect(Collectors.toMap(r -> r, r -> "/data/ior.dat." + String.format("%08d", r)));
        TracedJob job = new TracedJob("ior -F -b " + block + " -t " + transfer, nprocs, files, Map.of(), RuntimeInfo.unknown());
        TreeSet<Integer> ranks = IntStream.range(0, nprocs).boxed().collect(Collectors.toCollection(TreeSet::new));
        return new InMemoryTraceSource(job, ranks, r -> {
            List<TraceRecord> out = new ArrayList<>();
            for (long k = 0; k < n; k++) {
                long t = k * INTERVAL_NANOS;
                out.add(new TraceRecord(r, r, op, Positioning.EXPLICIT_OFFSET, false, k * transfer, transfer, t, t + 1));
            }
            return out.iterator();
        });
    }

    /**
     * MPI-Tile-IO, layout of formulas.md 5.2 without overlap: rank r reads tile (r mod nx, r div nx), one
     * record per tile row of szx*elem bytes.
     */
    public static InMemoryTraceSource tileIo(int nx, int ny, long szx, long szy, long elem, IoOp op) {
        long rowX = nx * szx;
        return formula("mpi-tile-io --nr_tiles_x " + nx + " --nr_tiles_y " + ny, nx * ny, op, szx * elem, szy,
                (r, k) -> (((r / nx) * szy + k) * rowX + (r % nx) * szx) * elem);
    }

    /**
     * PIO-Bench nested strided: per rank, outer iterations of inner strided runs:
     * off = r*rankShift + i*outerStride + j*innerStride.
     */
    public static InMemoryTraceSource nestedStrided(int nprocs, long size, long innerStride, long innerCount,
                                                    long outerStride, long outerCount, long rankShift, IoOp op) {
        return formula("pio-bench nested-strided", nprocs, op, size, innerCount * outerCount,
                (r, k) -> r * rankShift + (k / innerCount) * outerStride + (k % innerCount) * innerStride);
    }

    /** Uniformly random aligned offsets in a file of {@code fileBlocks} blocks (IOR -z). */
    public static InMemoryTraceSource random(int nprocs, long size, long n, long fileBlocks, long seed) {
        return formula("ior -z", nprocs, IoOp.READ, size, n, (r, k) -> {
            long x = (seed * 31 + r) * 0x9E3779B97F4A7C15L + k * 0xBF58476D1CE4E5B9L;
            x ^= x >>> 31;
            x *= 0x94D049BB133111EBL;
            x ^= x >>> 29;
            return Math.floorMod(x, fileBlocks) * size;
        });
    }
}
