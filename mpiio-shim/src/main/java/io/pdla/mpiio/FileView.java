package io.pdla.mpiio;

import io.pdla.access.ExtentList;

/**
 * A file view (MPI_File_set_view): the filetype tiled from byte {@code displacement} on, every copy
 * {@code filetype.extentBytes()} after the previous one. Positions are counted in etypes of view data;
 * {@link #extents} turns a position and a byte count into the file's byte extents, the one place where a
 * view becomes an {@link ExtentList}.
 */
public final class FileView implements io.pdla.straight.StraightPath.RunView {
    private final long displacement;
    private final FileType etype;
    private final FileType filetype;
    private final String datarep;
    private final Datarep representation;
    // asked on every call: worked out once, as the view never changes (a new view is a new object)
    private final long etypeBytes;
    private final boolean contiguous;
    private final long contiguousStart;
    private final boolean plainRun;

    FileView(long displacement, FileType etype, FileType filetype, String datarep) {
        this.displacement = displacement;
        this.etype = etype;
        this.filetype = filetype;
        this.datarep = datarep;
        Datarep r = Datarep.named(datarep);
        this.representation = r == null ? Datarep.DEFAULT : r;
        this.etypeBytes = etype.sizeBytes();
        this.contiguous = filetype.isContiguous();
        this.contiguousStart = displacement + filetype.lbBytes();
        this.plainRun = filetype.sizeBytes() > 0 && representation.identityForBytes();
    }

    static FileView defaultView() {
        return new FileView(0, FileType.bytes(1), FileType.bytes(1), MPIIO.DATAREP_NATIVE);
    }

    public long displacement() {
        return displacement;
    }

    public FileType etype() {
        return etype;
    }

    public FileType filetype() {
        return filetype;
    }

    public String datarep() {
        return datarep;
    }

    Datarep representation() {
        return representation;
    }

    long etypeBytes() {
        return etypeBytes;
    }

    boolean isContiguous() {
        return contiguous;
    }

    /**
     * Where a contiguous filetype's data starts: its one block sits at its lower bound, which an indexed or
     * struct type with a single block need not have at 0 (tiling it at multiples of its extent from there).
     */
    long contiguousStart() {
        return contiguousStart;
    }

    /** File extents of {@code nbytes} of view data starting at view position {@code position} (etypes). */
    ExtentList extents(long position, long nbytes) {
        long dataByte = position * etypeBytes();
        if (nbytes == 0) return ExtentList.EMPTY;
        if (contiguous) return ExtentList.of(contiguousStart() + dataByte, nbytes);
        long size = filetype.sizeBytes();
        long extent = filetype.extentBytes();
        long tile = dataByte / size;
        long within = dataByte % size;
        int block = filetype.blockOfDataByte(within);
        long intoBlock = within - filetype.bytesBefore(block);
        ExtentList.Builder b = ExtentList.builder(Math.toIntExact(Math.min(1 << 16, nbytes / Math.max(1, filetype.length(0)) + 2)));
        long left = nbytes;
        while (left > 0) {
            long blockLen = filetype.length(block) - intoBlock;
            long take = Math.min(blockLen, left);
            b.add(displacement + tile * extent + filetype.displacement(block) + intoBlock, take);
            left -= take;
            intoBlock = 0;
            if (++block == filetype.blockCount()) {
                block = 0;
                tile++;
            }
        }
        return b.build();
    }

    /**
     * Whether a call may skip {@link #extents}: view data reaches memory unconverted and the filetype holds data; then a
     * call whose bytes lie in one block of the filetype (any call through a contiguous one; one transfer through IOR's
     * or Tile-IO's views) is one run of file bytes, at {@link #plainRunStart}.
     */
    boolean isPlainRun() {
        return plainRun;
    }

    /**
     * For a view that {@link #isPlainRun may be}: the file offset of {@code nbytes} of view data at view position
     * {@code position} when they are one run of file bytes, the one extent {@link #extents} would give; -1 when they
     * are not (they cross a block of the filetype) or where {@link #extents} would refuse them (past the largest file
     * offset), for the general path to describe or refuse.
     */
    @Override
    public long plainRunStart(long position, long nbytes) {
        long e = etypeBytes();
        if (position < 0) return -1;
        if (contiguous) {
            long start = contiguousStart();
            if (start < 0 || position > (Long.MAX_VALUE - start - nbytes) / e) return -1;
            return start + position * e;
        }
        if (position > Long.MAX_VALUE / e) return -1;
        long dataByte = position * e;
        long size = filetype.sizeBytes();
        long tile = dataByte / size;
        long within = dataByte % size;
        int block = filetype.blockOfDataByte(within);
        long intoBlock = within - filetype.bytesBefore(block);
        if (nbytes > filetype.length(block) - intoBlock) return -1;
        long base = displacement + filetype.displacement(block) + intoBlock;
        long extent = filetype.extentBytes();
        if (base < 0 || base > Long.MAX_VALUE - nbytes || (extent > 0 && tile > (Long.MAX_VALUE - nbytes - base) / extent)) return -1;
        return base + tile * extent;
    }

    /** The absolute byte offset of view position {@code position} (MPI_File_get_byte_offset). */
    long byteOffset(long position) {
        long dataByte = position * etypeBytes();
        if (contiguous) return contiguousStart() + dataByte;
        long size = filetype.sizeBytes();
        long tile = dataByte / size;
        long within = dataByte % size;
        int block = filetype.blockOfDataByte(within);
        return displacement + tile * filetype.extentBytes() + filetype.displacement(block) + (within - filetype.bytesBefore(block));
    }

    /**
     * The view position just past the last view byte below {@code fileSize}: where SEEK_END and APPEND
     * put a file pointer. Counts whole etypes.
     */
    long positionAtFileSize(long fileSize) {
        long bytesInView;
        if (fileSize <= displacement) {
            bytesInView = 0;
        } else if (contiguous) {
            bytesInView = Math.max(0, fileSize - contiguousStart());
        } else {
            long rel = fileSize - displacement;
            long extent = filetype.extentBytes();
            long tiles = extent == 0 ? 0 : rel / extent;
            long rest = rel - tiles * extent;
            long partial = 0;
            for (int i = 0; i < filetype.blockCount(); i++) {
                long start = filetype.displacement(i);
                if (rest <= start) break;
                partial += Math.min(filetype.length(i), rest - start);
            }
            bytesInView = tiles * filetype.sizeBytes() + partial;
        }
        long e = etypeBytes();
        return (bytesInView + e - 1) / e;
    }
}
