package io.pdla.mpiio;

import java.util.Arrays;

/**
 * A datatype flattened once into byte blocks (ROMIO's {@code ADIOI_Flatlist_node}): the typemap's
 * {@code (displacement, length)} pairs in typemap order, plus lower bound and extent. Views, memory layouts
 * and the helpers ({@link Datatypes#subarray}, {@link Datatypes#darrayBlock}) all produce one of these;
 * everything below the API works on them and on {@link io.pdla.access.ExtentList}s only.
 *
 * <p>{@code elementBytes} is the size of the basic element (1 for bytes, 4 for ints...), which a memory
 * buffer of Java arrays must match.
 */
public final class FileType {
    private final long[] displacements;
    private final long[] lengths;
    private final long[] prefix; // prefix[i] = bytes in blocks before block i
    private final long lb;
    private final long extent;
    private final long size;
    private final int elementBytes;

    /**
     * The most blocks a flattened type may have once touching blocks are merged (about 100 MB of block tables):
     * builders and the MPJ flattener merge as they go and refuse a type whose merged form has more, naming the bound,
     * rather than let a nonsense count drive the allocation. A typemap of any number of pieces that merge (a
     * contiguous vector of 2^27 ints) is within it.
     */
    public static final int MAX_BLOCKS = 1 << 22;

    FileType(long[] displacements, long[] lengths, long lb, long extent, int elementBytes) {
        if (displacements.length != lengths.length) throw new IllegalArgumentException("displacement/length count mismatch");
        for (long len : lengths) if (len < 0) throw new IllegalArgumentException("block lengths must be >= 0, got " + len);
        // Merge blocks that touch, so a contiguous type is one block and views over it take the fast path.
        long[] d = new long[displacements.length];
        long[] l = new long[lengths.length];
        int n = 0;
        for (int i = 0; i < displacements.length; i++) {
            if (lengths[i] == 0) continue;
            if (n > 0 && d[n - 1] + l[n - 1] == displacements[i]) {
                l[n - 1] += lengths[i];
            } else {
                d[n] = displacements[i];
                l[n] = lengths[i];
                n++;
            }
        }
        this.displacements = Arrays.copyOf(d, n);
        this.lengths = Arrays.copyOf(l, n);
        this.prefix = new long[n + 1];
        for (int i = 0; i < n; i++) prefix[i + 1] = prefix[i] + this.lengths[i];
        this.size = prefix[n];
        this.lb = lb;
        this.extent = extent;
        this.elementBytes = elementBytes;
    }

    /** {@code n} contiguous bytes. */
    public static FileType bytes(long n) {
        if (n < 0) throw new IllegalArgumentException("byte count must be >= 0, was " + n);
        return new FileType(new long[]{0}, new long[]{n}, 0, n, 1);
    }

    /** A copy with another lower bound and extent (MPI_Type_create_resized). */
    public FileType resized(long newLb, long newExtent) {
        if (newExtent < 0) throw new IllegalArgumentException("extent must be >= 0, was " + newExtent);
        return new FileType(displacements, lengths, newLb, newExtent, elementBytes);
    }

    /** The blocks as the source of {@link Datatypes.Runs#addCopies} (which only reads them: the arrays are shared). */
    Datatypes.Runs runs() {
        Datatypes.Runs r = new Datatypes.Runs();
        if (displacements.length == 0) return r;
        r.d = displacements;
        r.l = lengths;
        r.n = displacements.length;
        return r;
    }

    public int blockCount() {
        return displacements.length;
    }

    public long displacement(int block) {
        return displacements[block];
    }

    public long length(int block) {
        return lengths[block];
    }

    /** Data bytes in blocks before {@code block}. */
    long bytesBefore(int block) {
        return prefix[block];
    }

    /** The block holding data byte {@code dataByte} (0 <= dataByte < size). */
    int blockOfDataByte(long dataByte) {
        int i = Arrays.binarySearch(prefix, dataByte);
        return i >= 0 ? i : -i - 2;
    }

    public long sizeBytes() {
        return size;
    }

    public long lbBytes() {
        return lb;
    }

    public long extentBytes() {
        return extent;
    }

    public int elementBytes() {
        return elementBytes;
    }

    public boolean isContiguous() {
        return displacements.length <= 1 && (displacements.length == 0 || (displacements[0] == lb && lengths[0] == extent));
    }

    /** Whether block displacements never go backwards or overlap: what MPI requires of etypes and filetypes of files open for writing. */
    public boolean isMonotone() {
        return !hasNegativeDisplacement() && !hasDecreasingDisplacement() && !overlaps();
    }

    /** A block before the type's origin (ROMIO's ADIOI_TYPE_NEGATIVE). */
    boolean hasNegativeDisplacement() {
        for (long d : displacements) if (d < 0) return true;
        return false;
    }

    /** A block starting before the block before it (ROMIO's ADIOI_TYPE_DECREASE: block starts, as ROMIO flattens). */
    boolean hasDecreasingDisplacement() {
        for (int i = 1; i < displacements.length; i++) if (displacements[i] < displacements[i - 1]) return true;
        return false;
    }

    /** A block starting inside the block before it (ROMIO's ADIOI_TYPE_OVERLAP), duplicates included. */
    boolean overlaps() {
        for (int i = 1; i < displacements.length; i++) if (displacements[i] < displacements[i - 1] + lengths[i - 1]) return true;
        return false;
    }

    @Override
    public String toString() {
        return "FileType[size=" + size + ", lb=" + lb + ", extent=" + extent + ", blocks=" + displacements.length + "]";
    }
}
