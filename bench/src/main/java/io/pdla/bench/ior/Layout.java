package io.pdla.bench.ior;

/**
 * Where each transfer goes, as in IOR's segmented layout. Shared file: segment {@code s} holds one block
 * of {@code b} bytes per rank in rank order, so transfer {@code k} of rank {@code r} in segment {@code s}
 * is at {@code s*np*b + r*b + k*t}. File per process: each rank's file holds only its own blocks, at
 * {@code s*b + k*t}. With reordering (-C) a rank reads back the data written by rank {@code r+1 (mod np)}.
 */
public final class Layout {
    private final int np;
    private final long block;
    private final long transfer;
    private final int segments;
    private final boolean filePerProcess;

    public Layout(int np, long block, long transfer, int segments, boolean filePerProcess) {
        if (np <= 0 || block <= 0 || transfer <= 0 || segments <= 0 || block % transfer != 0) {
            throw new IllegalArgumentException("bad layout np=" + np + " b=" + block + " t=" + transfer + " s=" + segments);
        }
        this.np = np;
        this.block = block;
        this.transfer = transfer;
        this.segments = segments;
        this.filePerProcess = filePerProcess;
    }

    public static Layout of(IorOptions o, int np) {
        return new Layout(np, o.blockSize(), o.transferSize(), o.segments(), o.filePerProcess());
    }

    /** File offset of transfer {@code k} of segment {@code segment} of the data of rank {@code dataRank}. */
    public long offset(int dataRank, int segment, long k) {
        long inBlock = k * transfer;
        if (filePerProcess) return segment * block + inBlock;
        return (segment * (long) np + dataRank) * block + inBlock;
    }

    /** The rank whose data {@code rank} reads back: itself, or its successor when reordering. */
    public int readRank(int rank, boolean reorder) {
        return reorder ? (rank + 1) % np : rank;
    }

    /** The file holding the data of {@code dataRank}: the shared file, or that rank's own file (IOR's suffix). */
    public String fileName(String base, int dataRank) {
        return filePerProcess ? base + "." + String.format("%08d", dataRank) : base;
    }

    public int segments() {
        return segments;
    }

    public long transfersPerBlock() {
        return block / transfer;
    }

    public long transferSize() {
        return transfer;
    }

    /** Bytes one rank moves in one phase. */
    public long bytesPerRank() {
        return block * segments;
    }

    /** Bytes all ranks move in one phase (IOR's aggregate file size). */
    public long aggregateBytes() {
        return bytesPerRank() * np;
    }
}
