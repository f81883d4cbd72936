package io.pdla.bench.schemes;

import io.pdla.size.ByteSize;
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
                ByteSize.formatIorStyle(size), ByteSize.formatIorStyle(stride), ByteSize.formatIorStyle(count * size));
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
                ByteSize.formatIorStyle(size), innerCount, outerCount);
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
        String name = String.format("MPI-Tile-IO, %dx%d tiles, %s per tile row, %d rows", nx, ny, ByteSize.formatIorStyle(rowBytes), rows);
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
        List<Part> parts = new ArrayList<>();
        StringBuilder label = new StringBuilder();
        for (long s : sizes) {
            positive("request size", s);
            parts.add(Part.of(bytesPerPart, s));
            label.append(label.length() == 0 ? "" : "/").append(ByteSize.formatIorStyle(s));
        }
        String name = String.format("Mixed sizes %s, %d procs, %s per size per proc", label, procs, ByteSize.formatIorStyle(bytesPerPart));
        return new SchemeComparison.WorkloadSpec(name, inParts("mixed-sizes", procs, parts, IoOp.READ), inParts("mixed-sizes", procs, parts, IoOp.WRITE));
    }

    /** {@link #lanlApp2(int, long, long, long, long, long)} with 16 KiB, 128 KiB and 1 MiB / 4 MiB alternating. */
    public static SchemeComparison.WorkloadSpec lanlApp2(int procs, long bytesPerPart) {
        return lanlApp2(procs, bytesPerPart, 16 << 10, 128 << 10, 1 << 20, 4 << 20);
    }

    /**
     * LANL App2-like (the PDLA / S-PDLA papers: "one shared file in three parts with small, medium and alternating
     * large requests"): part 1 of {@code small}-byte requests, part 2 of {@code medium}-byte requests, part 3 of
     * requests alternating {@code largeA}, {@code largeB}, {@code largeA}, ... Every rank has its own region in each
     * part and leaves a gap of each request's own size after it (fixed stride 2 * size, as {@link #mixedSizes};
     * in part 3 the pair repeats every 2 * (largeA + largeB)); ranks do part 1, then 2, then 3. Each part holds
     * about {@code bytesPerPart} bytes per rank: parts 1 and 2 {@code max(4, bytesPerPart / size)} requests, part 3
     * {@code max(2, bytesPerPart / (largeA + largeB))} whole pairs, so the analyzer sees the size cycle repeat.
     */
    public static SchemeComparison.WorkloadSpec lanlApp2(int procs, long bytesPerPart, long small, long medium, long largeA, long largeB) {
        positive("processes", procs);
        positive("bytes per part", bytesPerPart);
        positive("small request size", small);
        positive("medium request size", medium);
        positive("large request size A", largeA);
        positive("large request size B", largeB);
        if (largeA == largeB) {
            throw new IllegalArgumentException("large request sizes A and B must differ (part 3 alternates them), both were " + largeA);
        }
        List<Part> parts = List.of(Part.of(bytesPerPart, small), Part.of(bytesPerPart, medium), Part.of(bytesPerPart, largeA, largeB));
        String name = String.format("LANL App2-like %s / %s / %s+%s alternating, %d procs, %s per part per proc",
                ByteSize.formatIorStyle(small), ByteSize.formatIorStyle(medium), ByteSize.formatIorStyle(largeA),
                ByteSize.formatIorStyle(largeB), procs, ByteSize.formatIorStyle(bytesPerPart));
        return new SchemeComparison.WorkloadSpec(name, inParts("lanl-app2", procs, parts, IoOp.READ), inParts("lanl-app2", procs, parts, IoOp.WRITE));
    }

    /**
     * One part of a shared file: each rank issues {@code requests} requests whose sizes repeat {@code sizeCycle},
     * each request followed by a gap of its own size (stride 2 * size for a one-size cycle).
     */
    record Part(long[] sizeCycle, long requests) {
        /** About {@code bytes} per rank in whole cycles, at least 4 requests (the analyzer needs 3 to see a pattern). */
        static Part of(long bytes, long... sizeCycle) {
            long cycleBytes = 0;
            for (long s : sizeCycle) cycleBytes += s;
            long minCycles = (4 + sizeCycle.length - 1) / sizeCycle.length;
            return new Part(sizeCycle, sizeCycle.length * Math.max(minCycles, bytes / cycleBytes));
        }

        long size(long k) {
            return sizeCycle[(int) (k % sizeCycle.length)];
        }

        /** Where a rank's k-th request starts in the rank's region (k = requests: the region's length). */
        long offsetInRegion(long k) {
            long cycleSpan = 0, before = 0;
            int n = sizeCycle.length, inCycle = (int) (k % n);
            for (int i = 0; i < n; i++) {
                cycleSpan += 2 * sizeCycle[i];
                if (i < inCycle) before += 2 * sizeCycle[i];
            }
            return (k / n) * cycleSpan + before;
        }

        long regionBytes() {
            return offsetInRegion(requests);
        }
    }

    /** The parts one after the other in one file: rank r's region of a part at partBase + r * region. */
    static TraceSource inParts(String command, int procs, List<Part> parts, IoOp op) {
        List<InMemoryTraceSource> sources = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        long base = 0;
        for (Part p : parts) {
            long region = p.regionBytes(), partBase = base;
            sources.add(SyntheticTraces.formula(command, procs, op, p.requests(), p::size, (r, k) -> partBase + r * region + p.offsetInRegion(k)));
            counts.add(p.requests());
            base = Math.addExact(base, Math.multiplyExact(procs, region));
        }
        InMemoryTraceSource first = sources.get(0);
        return new InMemoryTraceSource(first.job(), first.ranks(), rank -> concat(sources, rank, counts));
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
