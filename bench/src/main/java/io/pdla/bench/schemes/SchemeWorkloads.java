package io.pdla.bench.schemes;

import io.pdla.access.IoOp;
import io.pdla.access.TraceRecord;
import io.pdla.patterns.InMemoryTraceSource;
import io.pdla.patterns.TraceSource;
import io.pdla.patterns.synth.SyntheticTraces;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/** The evaluation's workloads as read and write trace sources, built on the analyzer's {@link SyntheticTraces}. */
public final class SchemeWorkloads {
    private SchemeWorkloads() {
    }

    private static void positive(String what, long v) {
        if (v < 1) throw new IllegalArgumentException(what + " must be >= 1, was " + v);
    }

    /**
     * The paper's IOR-style fixed stride: rank r accesses {@code count} requests of {@code size} bytes in its own
     * region of a shared file, {@code stride} apart (region = count * stride; no two ranks' data interleave).
     */
    public static SchemeComparison.WorkloadSpec iorFixedStride(int procs, long size, long stride, long count) {
        positive("processes", procs);
        positive("request size", size);
        positive("requests per process", count);
        if (stride < size) throw new IllegalArgumentException("stride " + stride + " must be >= request size " + size);
        long region = count * stride;
        String name = String.format("IOR fixed stride, %d procs, %s requests, stride %s, %s per proc", procs,
                SchemeComparison.size(size), SchemeComparison.size(stride), SchemeComparison.size(count * size));
        return new SchemeComparison.WorkloadSpec(name,
                SyntheticTraces.formula("ior-fixed-stride", procs, IoOp.READ, size, count, (r, k) -> r * region + k * stride),
                SyntheticTraces.formula("ior-fixed-stride", procs, IoOp.WRITE, size, count, (r, k) -> r * region + k * stride));
    }

    /**
     * PIO-Bench nested strided: per rank {@code outerCount} outer iterations of {@code innerCount} requests; ranks
     * shifted by one request, inner stride 2 * procs * size, outer stride 2 * innerCount * inner stride.
     */
    public static SchemeComparison.WorkloadSpec pioNestedStrided(int procs, long size, long innerCount, long outerCount) {
        positive("processes", procs);
        positive("request size", size);
        positive("inner count", innerCount);
        positive("outer count", outerCount);
        long inner = 2L * procs * size, outer = 2 * innerCount * inner;
        String name = String.format("PIO-Bench nested strided, %d procs, %s requests, %dx%d per proc", procs,
                SchemeComparison.size(size), innerCount, outerCount);
        return new SchemeComparison.WorkloadSpec(name,
                SyntheticTraces.nestedStrided(procs, size, inner, innerCount, outer, outerCount, size, IoOp.READ),
                SyntheticTraces.nestedStrided(procs, size, inner, innerCount, outer, outerCount, size, IoOp.WRITE));
    }

    /** MPI-Tile-IO: nx * ny tiles, one per rank, one request per tile row of {@code rowBytes}; {@code rows} rows per tile. */
    public static SchemeComparison.WorkloadSpec tileIo(int nx, int ny, long rowBytes, long rows) {
        positive("tiles x", nx);
        positive("tiles y", ny);
        positive("tile row bytes", rowBytes);
        positive("tile rows", rows);
        String name = String.format("MPI-Tile-IO, %dx%d tiles, %s per tile row, %d rows", nx, ny, SchemeComparison.size(rowBytes), rows);
        return new SchemeComparison.WorkloadSpec(name,
                SyntheticTraces.tileIo(nx, ny, rowBytes, rows, 1, IoOp.READ),
                SyntheticTraces.tileIo(nx, ny, rowBytes, rows, 1, IoOp.WRITE));
    }

    /**
     * Mixed sizes for S-PDLA: the file in parts, one per request size; in part i every rank accesses
     * {@code bytesPerPart} bytes (at least 4 requests) of {@code sizes[i]}-byte requests in its own region, fixed
     * stride 2 * size; ranks do part 0, then part 1, and so on.
     */
    public static SchemeComparison.WorkloadSpec mixedSizes(int procs, long bytesPerPart, long... sizes) {
        positive("processes", procs);
        positive("bytes per part", bytesPerPart);
        if (sizes.length == 0) throw new IllegalArgumentException("mixed workload needs at least one request size");
        StringBuilder label = new StringBuilder();
        for (long s : sizes) {
            positive("request size", s);
            label.append(label.length() == 0 ? "" : "/").append(SchemeComparison.size(s));
        }
        String name = String.format("Mixed sizes %s, %d procs, %s per size per proc", label, procs, SchemeComparison.size(bytesPerPart));
        return new SchemeComparison.WorkloadSpec(name, mixed(procs, bytesPerPart, sizes, IoOp.READ), mixed(procs, bytesPerPart, sizes, IoOp.WRITE));
    }

    private static TraceSource mixed(int procs, long bytesPerPart, long[] sizes, IoOp op) {
        List<InMemoryTraceSource> parts = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        long base = 0;
        for (long s : sizes) {
            long count = Math.max(4, bytesPerPart / s);
            counts.add(count);
            long region = count * 2 * s, partBase = base;
            parts.add(SyntheticTraces.formula("mixed-sizes", procs, op, s, count, (r, k) -> partBase + r * region + k * 2 * s));
            base += procs * region;
        }
        InMemoryTraceSource first = parts.get(0);
        return new InMemoryTraceSource(first.job(), first.ranks(), rank -> concat(parts, rank, counts));
    }

    /** Rank {@code rank}'s records of every part, one part after the other, times shifted to keep issue order. */
    private static Iterator<TraceRecord> concat(List<InMemoryTraceSource> parts, int rank, List<Long> counts) {
        return new Iterator<>() {
            int part = 0;
            long shiftRequests = 0;
            Iterator<TraceRecord> cur = parts.get(0).records(rank);

            public boolean hasNext() {
                while (!cur.hasNext() && part + 1 < parts.size()) {
                    shiftRequests += counts.get(part);
                    cur = parts.get(++part).records(rank);
                }
                return cur.hasNext();
            }

            public TraceRecord next() {
                if (!hasNext()) throw new NoSuchElementException();
                TraceRecord r = cur.next();
                long shift = shiftRequests * SyntheticTraces.INTERVAL_NANOS;
                return new TraceRecord(r.rank(), r.fileId(), r.op(), r.positioning(), r.collective(), r.offset(), r.length(),
                        r.startNanos() + shift, r.endNanos() + shift);
            }
        };
    }
}
