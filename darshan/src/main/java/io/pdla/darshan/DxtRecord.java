package io.pdla.darshan;

/**
 * The DXT trace of one file on one rank: write segments then read segments, each in call order. Segments are kept
 * in primitive arrays (index i &lt; writeCount are writes) so a million segments cost 40 bytes each, not an object.
 */
public record DxtRecord(long id, long rank, String hostname, int writeCount, int readCount, long[] offsets,
                        long[] lengths, double[] starts, double[] ends, long[] threadIds) {
    public int segmentCount() { return writeCount + readCount; }

    public boolean isWrite(int i) { return i < writeCount; }
}
