package io.pdla.mpiio;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Flattens MPJ Express datatypes into {@link FileType}s, and builds the filetypes MPJ lacks
 * (subarray, block distributions).
 *
 * <p>MPJ keeps a derived type's structure in private fields and counts everything in elements of the
 * base type, not bytes; we read those fields reflectively once per type and convert to bytes. The
 * alternative, packing a probe buffer through MPJ's packers, would cost a buffer per call and still not
 * give us lower bound and extent.
 */
public final class Datatypes {
    private Datatypes() {
    }

    /** Row-major (C) and column-major (Fortran) array orders for {@link #subarray}. */
    public enum Order { C, FORTRAN }

    /**
     * A flattened copy of an MPJ datatype, in bytes. Touching pieces merge while the typemap is built (ROMIO merges
     * after), each part of a type is flattened once and then copied, and copies of a single run that touch one
     * another become one run without a loop: so a type costs what its merged form costs, in time and memory, however
     * many pieces its typemap names (a vector of 2^27 one-int blocks of stride 1 is one 512 MiB run). A merged form
     * above {@link FileType#MAX_BLOCKS} blocks is ERR_TYPE naming the bound.
     */
    public static FileType flatten(Datatype type) throws MPIIOException {
        if (type == null) throw new MPIIOException(ErrorClass.ERR_TYPE, "datatype is null");
        int elem = elementBytes(type);
        try {
            Runs blocks = runs(type, new java.util.IdentityHashMap<>());
            long[] bounds = bounds(type);
            long lb = bounds[0];
            long extent = bounds[1] - bounds[0];
            long[] d = new long[blocks.n];
            long[] l = new long[blocks.n];
            for (int i = 0; i < d.length; i++) {
                d[i] = Math.multiplyExact(blocks.d[i], (long) elem);
                l[i] = Math.multiplyExact(blocks.l[i], (long) elem);
            }
            return new FileType(d, l, Math.multiplyExact(lb, (long) elem), Math.multiplyExact(extent, (long) elem), elem);
        } catch (MPIException | ReflectiveOperationException e) {
            throw new MPIIOException(ErrorClass.ERR_TYPE, "cannot flatten MPJ datatype " + type.getClass().getName() + ": " + e, e);
        } catch (TooLarge e) {
            throw new MPIIOException(ErrorClass.ERR_TYPE, "MPJ datatype " + type.getClass().getName() + " is too large to flatten: " + e.getMessage());
        } catch (ArithmeticException e) {
            throw new MPIIOException(ErrorClass.ERR_TYPE, "MPJ datatype " + type.getClass().getName() + " reaches past 2^63 bytes");
        }
    }

    /** A typemap too large to flatten (a nonsense count must not drive the allocation or the time). */
    static final class TooLarge extends Exception {
        TooLarge(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Runs of a typemap, in base elements (bytes for pdla's own builders), in typemap order: a piece that starts
     * where the last run ends extends it, so the list only ever holds merged runs, at most
     * {@link FileType#MAX_BLOCKS} of them.
     */
    static final class Runs {
        long[] d = new long[4], l = new long[4];
        int n;

        void add(long at, long len) throws TooLarge {
            if (len == 0) return;
            if (n > 0 && d[n - 1] + l[n - 1] == at) {
                l[n - 1] = Math.addExact(l[n - 1], len);
                return;
            }
            if (n == FileType.MAX_BLOCKS) {
                throw new TooLarge("its typemap has more than " + FileType.MAX_BLOCKS + " blocks after merging touching ones (FileType.MAX_BLOCKS)");
            }
            if (n == d.length) {
                d = Arrays.copyOf(d, Math.min(FileType.MAX_BLOCKS, n * 2));
                l = Arrays.copyOf(l, d.length);
            }
            d[n] = at;
            l[n] = len;
            n++;
        }

        /**
         * Appends {@code count} copies of {@code r}, copy i at {@code at + i * step}. The work follows the output:
         * copies of a type with several runs merge at most one run each with their neighbour, and copies of a
         * single run either touch (one run, computed) or not (one run each, refused past the bound before the loop).
         */
        void addCopies(Runs r, long count, long step, long at) throws TooLarge {
            if (count <= 0 || r.n == 0) return;
            if (r.n == 1) {
                long first = Math.addExact(at, r.d[0]);
                if (r.l[0] == step || count == 1) { // each copy starts where the previous ends: one run
                    add(first, Math.multiplyExact(r.l[0], count));
                    return;
                }
                if (count > FileType.MAX_BLOCKS) {
                    throw new TooLarge(count + " separate blocks, more than " + FileType.MAX_BLOCKS + " (FileType.MAX_BLOCKS)");
                }
            }
            for (long i = 0; i < count; i++) {
                long base = Math.addExact(at, Math.multiplyExact(i, step));
                for (int k = 0; k < r.n; k++) add(Math.addExact(base, r.d[k]), r.l[k]);
            }
        }
    }

    /** Bytes of the basic element of {@code type}; ERR_TYPE for MPI.OBJECT and markers. */
    static int elementBytes(Datatype type) throws MPIIOException {
        int base = type.baseType;
        if (base == MPI.BYTE.baseType || base == MPI.BOOLEAN.baseType) return 1;
        if (base == MPI.CHAR.baseType || base == MPI.SHORT.baseType) return 2;
        if (base == MPI.INT.baseType || base == MPI.FLOAT.baseType) return 4;
        if (base == MPI.LONG.baseType || base == MPI.DOUBLE.baseType) return 8;
        throw new MPIIOException(ErrorClass.ERR_TYPE, "datatype with base type code " + base
                + " cannot be used for file I/O (only BYTE, BOOLEAN, CHAR, SHORT, INT, FLOAT, LONG, DOUBLE)");
    }

    /**
     * The merged runs of {@code t}'s typemap relative to its origin, in base elements. Each distinct sub-type is
     * flattened once ({@code done}: a struct may name one type many times) and copied where the type places it.
     */
    private static Runs runs(Datatype t, java.util.Map<Datatype, Runs> done) throws MPIException, ReflectiveOperationException, TooLarge {
        Runs known = done.get(t);
        if (known != null) return known;
        Runs out = new Runs();
        String kind = t.getClass().getSimpleName();
        switch (kind) {
            case "BasicType" -> out.add(0, 1);
            case "Contiguous" -> {
                Datatype old = (Datatype) field(t, "oldType");
                out.addCopies(runs(old, done), intField(t, "count"), extent(old), 0);
            }
            case "Vector" -> {
                int count = intField(t, "count");
                int blockLength = intField(t, "blockLength");
                int stride = intField(t, "stride");
                Datatype old = (Datatype) field(t, "oldType");
                long ext = extent(old);
                long step = vectorStep(t, stride, ext);
                Runs block = new Runs();
                block.addCopies(runs(old, done), blockLength, ext, 0);
                out.addCopies(block, count, step, 0);
            }
            case "Indexed" -> {
                int[] disps = (int[]) field(t, "displacements");
                int[] lens = blockLengths(t, disps.length);
                boolean units = (boolean) field(t, "unitsOfOldExtent");
                Datatype old = (Datatype) field(t, "oldType");
                long ext = extent(old);
                Runs child = runs(old, done);
                for (int i = 0; i < lens.length; i++) out.addCopies(child, lens[i], ext, indexedDisplacement(disps[i], units, old, ext));
            }
            case "Struct" -> {
                int[] disps = (int[]) field(t, "displacements");
                int[] lens = blockLengths(t, disps.length);
                Datatype[] olds = (Datatype[]) field(t, "oldTypes");
                for (int i = 0; i < lens.length; i++) {
                    Datatype old = olds[i];
                    if (old.baseType == MPI.LB.baseType || old.baseType == MPI.UB.baseType) continue; // bound markers
                    out.addCopies(runs(old, done), lens[i], extent(old), disps[i]);
                }
            }
            default -> throw new IllegalArgumentException("unsupported MPJ datatype class " + t.getClass().getName());
        }
        done.put(t, out);
        return out;
    }

    private static long extent(Datatype t) throws MPIException, ReflectiveOperationException {
        long[] b = bounds(t);
        return b[1] - b[0];
    }

    /**
     * Lower and upper bound of {@code t} in base elements, by the standard's definitions. MPJ's own Lb()
     * ignores an explicit MPI.LB marker below the data (a struct of LB at 0 and data at 1 reports lb 1), which
     * would shift every tile of a resized filetype; so bounds are computed here, from markers where present.
     */
    private static long[] bounds(Datatype t) throws MPIException, ReflectiveOperationException {
        String kind = t.getClass().getSimpleName();
        switch (kind) {
            case "Contiguous" -> {
                int count = intField(t, "count");
                Datatype old = (Datatype) field(t, "oldType");
                return span(bounds(old), extent(old), count == 0 ? new long[0] : new long[]{0, (count - 1) * extent(old)});
            }
            case "Vector" -> {
                int count = intField(t, "count");
                int blockLength = intField(t, "blockLength");
                int stride = intField(t, "stride");
                Datatype old = (Datatype) field(t, "oldType");
                long ext = extent(old);
                long step = vectorStep(t, stride, ext);
                if (count == 0 || blockLength == 0) return new long[]{0, 0};
                long a = (count - 1) * step, b = (blockLength - 1) * ext;
                return span(bounds(old), ext, new long[]{Math.min(0, a) + Math.min(0, b), Math.max(0, a) + Math.max(0, b)});
            }
            case "Indexed" -> {
                int[] disps = (int[]) field(t, "displacements");
                int[] lens = blockLengths(t, disps.length);
                boolean units = (boolean) field(t, "unitsOfOldExtent");
                Datatype old = (Datatype) field(t, "oldType");
                long ext = extent(old);
                List<Long> pos = new ArrayList<>();
                for (int i = 0; i < lens.length; i++) {
                    if (lens[i] == 0) continue;
                    long base = indexedDisplacement(disps[i], units, old, ext);
                    pos.add(base);
                    pos.add(base + (lens[i] - 1) * ext);
                }
                return span(bounds(old), ext, pos.stream().mapToLong(Long::longValue).toArray());
            }
            case "Struct" -> {
                int[] disps = (int[]) field(t, "displacements");
                int[] lens = blockLengths(t, disps.length);
                Datatype[] olds = (Datatype[]) field(t, "oldTypes");
                long lbMarker = Long.MAX_VALUE, ubMarker = Long.MIN_VALUE, lb = Long.MAX_VALUE, ub = Long.MIN_VALUE;
                for (int i = 0; i < lens.length; i++) {
                    Datatype old = olds[i];
                    // MPJ gives LB and UB the same base type code: only identity tells them apart
                    if (old == MPI.LB) lbMarker = Math.min(lbMarker, disps[i]);
                    else if (old == MPI.UB) ubMarker = Math.max(ubMarker, disps[i]);
                    else if (lens[i] > 0) {
                        long[] ob = bounds(old);
                        long ext = ob[1] - ob[0];
                        lb = Math.min(lb, disps[i] + ob[0] + Math.min(0, (lens[i] - 1) * ext));
                        ub = Math.max(ub, disps[i] + ob[1] + Math.max(0, (lens[i] - 1) * ext));
                    }
                }
                if (lbMarker != Long.MAX_VALUE) lb = lbMarker;
                if (ubMarker != Long.MIN_VALUE) ub = ubMarker;
                if (lb == Long.MAX_VALUE) lb = 0;
                if (ub == Long.MIN_VALUE) ub = lb;
                return new long[]{lb, ub};
            }
            default -> {
                return new long[]{t.Lb(), t.Lb() + t.Extent()};
            }
        }
    }

    /** Bounds of copies of a type with bounds {@code old} placed at the given element offsets. */
    private static long[] span(long[] old, long ext, long[] positions) {
        if (positions.length == 0) return new long[]{0, 0};
        long min = Long.MAX_VALUE, max = Long.MIN_VALUE;
        for (long p : positions) {
            min = Math.min(min, p);
            max = Math.max(max, p);
        }
        return new long[]{old[0] + min, old[1] + max};
    }

    /**
     * An MPJ Vector's stride in base elements. MPJ's Vector constructor never sets its {@code unitsOfOldExtent} field
     * (it stays false for Vector and Hvector alike, so pdla took every Vector's stride as base elements, wrong for a
     * vector of a derived type of extent e, whose copies are stride x e apart); what tells them apart is
     * {@code realStride}, which MPJ multiplies by its extent of the old type for Vector only. The count is placed at
     * that many of the standard's extent of the old type.
     */
    private static long vectorStep(Datatype t, int stride, long ext) throws ReflectiveOperationException {
        int real = intField(t, "realStride");
        return real != stride ? stride * ext : stride;
    }

    /**
     * An MPJ Indexed block's displacement in base elements. MPJ's constructor keeps {@code displacements} already
     * multiplied by its own Extent() of the old type when they count old extents (MPI_Type_indexed), so multiplying
     * them again by the extent, as pdla did, put every block of an indexed type of a derived type of extent e at e
     * times its place (invisible with basic old types, extent 1). The application's count is the stored value over
     * MPJ's extent; it is placed at that many of the standard's extent of the old type (MPJ's own differs for types
     * with bound markers, see {@link #bounds}).
     */
    private static long indexedDisplacement(int stored, boolean units, Datatype old, long ext) throws MPIException {
        if (!units) return stored;
        long mpjExtent = old.Extent();
        return mpjExtent == 0 ? 0 : stored / mpjExtent * ext;
    }

    /** MPJ drops the block-length array when every block has length 1 ({@code unitBlocks}). */
    private static int[] blockLengths(Object t, int blocks) throws ReflectiveOperationException {
        int[] lens = (int[]) field(t, "blockLengths");
        if (lens != null) return lens;
        int[] ones = new int[blocks];
        java.util.Arrays.fill(ones, 1);
        return ones;
    }

    private static Object field(Object o, String name) throws ReflectiveOperationException {
        Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }

    private static int intField(Object o, String name) throws ReflectiveOperationException {
        return (int) field(o, name);
    }

    /**
     * MPI_Type_create_subarray: the {@code subsizes} block starting at {@code starts} of an array of
     * {@code sizes}, with the whole array's extent, so that tiling it in a view covers the whole array.
     * Sizes count elements of {@code elementBytes} bytes each.
     */
    public static FileType subarray(int[] sizes, int[] subsizes, int[] starts, Order order, int elementBytes) {
        int nd = sizes.length;
        if (nd == 0 || subsizes.length != nd || starts.length != nd) {
            throw new IllegalArgumentException("subarray needs sizes, subsizes and starts of the same non-zero length");
        }
        if (elementBytes <= 0) throw new IllegalArgumentException("elementBytes must be > 0, was " + elementBytes);
        for (int i = 0; i < nd; i++) {
            if (sizes[i] <= 0 || subsizes[i] <= 0 || starts[i] < 0 || starts[i] + subsizes[i] > sizes[i]) {
                throw new IllegalArgumentException("subarray dimension " + i + ": need 0 < subsize, 0 <= start, start + subsize <= size; got size="
                        + sizes[i] + " subsize=" + subsizes[i] + " start=" + starts[i]);
            }
        }
        // Normalise to C order: dimension 0 slowest.
        long[] sz = longs(sizes), sub = longs(subsizes), st = longs(starts);
        if (order == Order.FORTRAN) {
            reverse(sz);
            reverse(sub);
            reverse(st);
        }
        // A trailing dimension taken whole makes the rows of the one before it touch: fold it in, so that the
        // blocks counted (and refused past the bound) are the merged ones (a whole array is one block).
        while (nd > 1 && sub[nd - 1] == sz[nd - 1]) {
            try {
                sz[nd - 2] = Math.multiplyExact(sz[nd - 2], sz[nd - 1]);
                sub[nd - 2] = Math.multiplyExact(sub[nd - 2], sz[nd - 1]);
                st[nd - 2] = Math.multiplyExact(st[nd - 2], sz[nd - 1]);
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("subarray sizes " + Arrays.toString(sizes) + " overflow a 64-bit extent");
            }
            nd--;
        }
        long[] stridesElems = new long[nd];
        stridesElems[nd - 1] = 1;
        try {
            for (int i = nd - 2; i >= 0; i--) stridesElems[i] = Math.multiplyExact(stridesElems[i + 1], sz[i + 1]);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("subarray sizes " + Arrays.toString(sizes) + " overflow a 64-bit extent");
        }
        long rows = 1;
        for (int i = 0; i < nd - 1; i++) {
            rows *= sub[i];
            if (rows > FileType.MAX_BLOCKS) {
                throw new IllegalArgumentException("subarray subsizes " + Arrays.toString(subsizes) + " make more than " + FileType.MAX_BLOCKS + " blocks");
            }
        }
        long total;
        try {
            total = Math.multiplyExact(Math.multiplyExact(stridesElems[0], sz[0]), (long) elementBytes);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("subarray sizes " + Arrays.toString(sizes) + " x " + elementBytes + " bytes overflow a 64-bit extent");
        }
        long[] d = new long[Math.toIntExact(rows)];
        long[] l = new long[d.length];
        long[] idx = new long[nd]; // counters over the leading nd-1 dimensions
        for (int r = 0; r < d.length; r++) {
            long off = st[nd - 1];
            for (int i = 0; i < nd - 1; i++) off += (st[i] + idx[i]) * stridesElems[i];
            d[r] = off * elementBytes;
            l[r] = sub[nd - 1] * elementBytes;
            for (int i = nd - 2; i >= 0; i--) {
                if (++idx[i] < sub[i]) break;
                idx[i] = 0;
            }
        }
        return new FileType(d, l, 0, total, elementBytes);
    }

    /**
     * A block distribution of an array over a process grid (MPI_Type_create_darray with
     * MPI_DISTRIBUTE_BLOCK in every dimension and default block sizes): the part owned by {@code rank},
     * whose grid coordinates are taken in C order. Trailing processes get smaller blocks when a size does
     * not divide, as MPI's block distribution does.
     */
    public static FileType darrayBlock(int rank, int[] sizes, int[] procGrid, Order order, int elementBytes) {
        int nd = sizes.length;
        if (procGrid.length != nd) throw new IllegalArgumentException("procGrid needs " + nd + " dimensions, has " + procGrid.length);
        int nprocs = 1;
        for (int p : procGrid) {
            if (p <= 0) throw new IllegalArgumentException("process grid dimensions must be > 0");
            nprocs *= p;
        }
        if (rank < 0 || rank >= nprocs) throw new IllegalArgumentException("rank " + rank + " outside a grid of " + nprocs + " processes");
        int[] coords = new int[nd];
        int r = rank;
        for (int i = nd - 1; i >= 0; i--) {
            coords[i] = r % procGrid[i];
            r /= procGrid[i];
        }
        int[] sub = new int[nd], st = new int[nd];
        for (int i = 0; i < nd; i++) {
            int block = (sizes[i] + procGrid[i] - 1) / procGrid[i];
            st[i] = Math.min(coords[i] * block, sizes[i]);
            sub[i] = Math.max(0, Math.min(block, sizes[i] - st[i]));
            if (sub[i] == 0) {
                throw new IllegalArgumentException("rank " + rank + " owns nothing in dimension " + i + " (size " + sizes[i] + " over " + procGrid[i] + " processes)");
            }
        }
        return subarray(sizes, sub, st, order, elementBytes);
    }

    /** {@code count} blocks of {@code blockBytes}, {@code strideBytes} apart (a byte vector). */
    public static FileType vector(int count, long blockBytes, long strideBytes) {
        if (count < 0 || blockBytes < 0) throw new IllegalArgumentException("vector count and block must be >= 0, were " + count + " and " + blockBytes);
        long extent;
        try {
            extent = count == 0 ? 0 : Math.addExact(Math.multiplyExact(count - 1L, strideBytes), blockBytes);
            if (strideBytes == blockBytes || count <= 1) {
                // contiguous: one block, whatever the count
                long total = Math.multiplyExact((long) count, blockBytes);
                return new FileType(new long[]{0}, new long[]{total}, 0, extent, 1);
            }
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("vector of " + count + " blocks of " + blockBytes + " bytes every " + strideBytes + " overflows a 64-bit extent");
        }
        if (count > FileType.MAX_BLOCKS) throw new IllegalArgumentException("vector count " + count + " is more than " + FileType.MAX_BLOCKS + " blocks");
        long[] d = new long[count], l = new long[count];
        for (int i = 0; i < count; i++) {
            d[i] = i * strideBytes;
            l[i] = blockBytes;
        }
        return new FileType(d, l, 0, extent, 1);
    }

    /** Blocks at the given byte displacements (an hindexed type of bytes). */
    public static FileType indexed(long[] blockBytes, long[] displacementBytes) {
        if (blockBytes.length != displacementBytes.length) throw new IllegalArgumentException("lengths and displacements differ in count");
        long lb = Long.MAX_VALUE, ub = 0;
        for (int i = 0; i < blockBytes.length; i++) {
            if (blockBytes[i] < 0) throw new IllegalArgumentException("indexed block " + i + " has length " + blockBytes[i] + " (must be >= 0)");
            lb = Math.min(lb, displacementBytes[i]);
            try {
                ub = Math.max(ub, Math.addExact(displacementBytes[i], blockBytes[i]));
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("indexed block " + i + " at " + displacementBytes[i] + " of " + blockBytes[i] + " bytes ends beyond 2^63");
            }
        }
        if (blockBytes.length == 0) lb = 0;
        return new FileType(displacementBytes.clone(), blockBytes.clone(), lb, ub - lb, 1);
    }

    /** Distributions of {@link #darray} (MPI_DISTRIBUTE_*). */
    public enum Distribution { BLOCK, CYCLIC, NONE }

    /** MPI_DISTRIBUTE_DFLT_DARG: the default block size of a distribution. */
    public static final int DFLT_DARG = -1;

    /**
     * MPI_Type_create_darray: the part of a {@code gsizes} array of {@code elementBytes}-byte elements that
     * process {@code rank} of a {@code psizes} grid (ranks in row-major order) owns, with the whole array's
     * extent. BLOCK(darg) gives each process one block of {@code darg} (default: ceil(gsize/psize)) indices,
     * CYCLIC(darg) deals blocks of {@code darg} (default 1) round-robin, NONE keeps the dimension whole (its
     * psize must be 1). A process that owns nothing gets an empty type, as MPI allows.
     */
    public static FileType darray(int size, int rank, int[] gsizes, Distribution[] distribs, int[] dargs, int[] psizes,
                                  Order order, int elementBytes) {
        int nd = gsizes.length;
        if (nd == 0 || distribs.length != nd || dargs.length != nd || psizes.length != nd) {
            throw new IllegalArgumentException("darray needs gsizes, distribs, dargs and psizes of the same non-zero length");
        }
        if (elementBytes <= 0) throw new IllegalArgumentException("elementBytes must be > 0, was " + elementBytes);
        long grid = 1;
        for (int i = 0; i < nd; i++) {
            if (gsizes[i] <= 0 || psizes[i] <= 0) throw new IllegalArgumentException("darray dimension " + i + ": gsize and psize must be > 0");
            if (distribs[i] == Distribution.NONE && psizes[i] != 1) throw new IllegalArgumentException("darray dimension " + i + ": DISTRIBUTE_NONE needs psize 1, was " + psizes[i]);
            if (distribs[i] == Distribution.BLOCK && dargs[i] != DFLT_DARG && (long) dargs[i] * psizes[i] < gsizes[i]) {
                throw new IllegalArgumentException("darray dimension " + i + ": block " + dargs[i] + " x " + psizes[i] + " processes does not cover " + gsizes[i]);
            }
            if (dargs[i] != DFLT_DARG && dargs[i] <= 0) throw new IllegalArgumentException("darray dimension " + i + ": darg must be > 0 or DFLT_DARG, was " + dargs[i]);
            grid *= psizes[i];
        }
        if (grid != size) throw new IllegalArgumentException("darray: process grid of " + grid + " processes for a group of " + size);
        if (rank < 0 || rank >= size) throw new IllegalArgumentException("darray: rank " + rank + " outside a group of " + size);
        int[] coords = new int[nd];
        int r = rank;
        for (int i = nd - 1; i >= 0; i--) { // process ranks are row-major in the grid whatever the array order
            coords[i] = r % psizes[i];
            r /= psizes[i];
        }
        int[][] owned = new int[nd][];
        for (int i = 0; i < nd; i++) owned[i] = ownedIndices(gsizes[i], distribs[i], dargs[i], psizes[i], coords[i]);
        // element strides of the global array, in the array's order
        long[] stride = new long[nd];
        if (order == Order.C) {
            stride[nd - 1] = 1;
            for (int i = nd - 2; i >= 0; i--) stride[i] = stride[i + 1] * gsizes[i + 1];
        } else {
            stride[0] = 1;
            for (int i = 1; i < nd; i++) stride[i] = stride[i - 1] * gsizes[i - 1];
        }
        long total = stride[order == Order.C ? 0 : nd - 1] * gsizes[order == Order.C ? 0 : nd - 1] * elementBytes;
        long count = 1;
        for (int[] o : owned) count *= o.length;
        // element by element, merged as they come: memory follows the merged blocks (a BLOCK part is one per row)
        Runs out = new Runs();
        int[] idx = new int[nd];
        for (long e = 0; e < count; e++) {
            long off = 0;
            for (int i = 0; i < nd; i++) off += owned[i][idx[i]] * stride[i];
            try {
                out.add(off * elementBytes, elementBytes);
            } catch (TooLarge t) {
                throw new IllegalArgumentException("darray part of rank " + rank + ": " + t.getMessage());
            }
            // the fastest-varying dimension is the last in C order, the first in Fortran order
            for (int k = 0; k < nd; k++) {
                int i = order == Order.C ? nd - 1 - k : k;
                if (++idx[i] < owned[i].length) break;
                idx[i] = 0;
            }
        }
        return new FileType(Arrays.copyOf(out.d, out.n), Arrays.copyOf(out.l, out.n), 0, total, elementBytes);
    }

    private static int[] ownedIndices(int gsize, Distribution dist, int darg, int psize, int coord) {
        List<Integer> out = new ArrayList<>();
        switch (dist) {
            case NONE -> { for (int g = 0; g < gsize; g++) out.add(g); }
            case BLOCK -> {
                int block = darg == DFLT_DARG ? (gsize + psize - 1) / psize : darg;
                for (long g = (long) coord * block; g < Math.min(gsize, (long) (coord + 1) * block); g++) out.add((int) g);
            }
            case CYCLIC -> {
                int block = darg == DFLT_DARG ? 1 : darg;
                for (long start = (long) coord * block; start < gsize; start += (long) psize * block) {
                    for (long g = start; g < Math.min(gsize, start + block); g++) out.add((int) g);
                }
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * MPI_Type_create_hindexed_block: {@code blockLength} consecutive copies of {@code old} at each byte
     * displacement. Lower bound and extent as the standard defines them from {@code old}'s.
     */
    public static FileType hindexedBlock(int blockLength, long[] displacementBytes, FileType old) {
        if (blockLength < 0) throw new IllegalArgumentException("hindexedBlock block length must be >= 0, was " + blockLength);
        Runs child = old.runs();
        Runs out = new Runs();
        long lb = Long.MAX_VALUE, ub = Long.MIN_VALUE;
        try {
            for (long disp : displacementBytes) {
                out.addCopies(child, blockLength, old.extentBytes(), disp);
                if (blockLength > 0) {
                    lb = Math.min(lb, disp + old.lbBytes());
                    ub = Math.max(ub, Math.addExact(disp + old.lbBytes(), Math.multiplyExact((long) blockLength, old.extentBytes())));
                }
            }
        } catch (TooLarge e) {
            throw new IllegalArgumentException("hindexedBlock of " + displacementBytes.length + " x " + blockLength + " copies of a "
                    + old.blockCount() + "-block type: " + e.getMessage());
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("hindexedBlock of " + blockLength + " copies of a type of extent " + old.extentBytes() + " reaches past 2^63");
        }
        if (lb == Long.MAX_VALUE) lb = ub = 0;
        return new FileType(Arrays.copyOf(out.d, out.n), Arrays.copyOf(out.l, out.n), lb, ub - lb, old.elementBytes());
    }

    /** A basic element type of {@code elementBytes} bytes as a FileType (MPI.INT is {@code element(4)}). */
    public static FileType element(int elementBytes) {
        return new FileType(new long[]{0}, new long[]{elementBytes}, 0, elementBytes, elementBytes);
    }

    private static void reverse(long[] a) {
        for (int i = 0, j = a.length - 1; i < j; i++, j--) {
            long t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    private static long[] longs(int[] a) {
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) out[i] = a[i];
        return out;
    }
}
