package io.pdla.darshan;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Reads the decompressed bytes of one region; running out names the region and the uncompressed offset. */
final class RecordCursor {
    private final ByteBuffer b;
    private final int limit;
    private final String region;
    private final long regionFileOffset;
    private int pos;

    RecordCursor(byte[] data, int length, ByteOrder order, String region, long regionFileOffset) {
        this.b = ByteBuffer.wrap(data, 0, length).order(order);
        this.limit = length;
        this.region = region;
        this.regionFileOffset = regionFileOffset;
    }

    int remaining() { return limit - pos; }

    int position() { return pos; }

    /**
     * {@link #need} for {@code count} items of {@code bytesEach} bytes, checked by division: a damaged count whose
     * product overflows (2^60 bins of 16 bytes is 0 bytes) must not pass and then size an array.
     */
    void needItems(long count, long bytesEach, String what) throws DarshanFormatException {
        if (count < 0 || count > remaining() / bytesEach) {
            throw new DarshanFormatException(region, regionFileOffset, what + " needs " + count + " items of " + bytesEach
                    + " bytes at uncompressed offset " + pos + " but only " + remaining() + " bytes remain (truncated or damaged count)");
        }
    }

    void need(long bytes, String what) throws DarshanFormatException {
        if (bytes < 0 || bytes > remaining()) {
            throw new DarshanFormatException(region, regionFileOffset, what + " needs " + bytes + " bytes at uncompressed offset "
                    + pos + " but only " + remaining() + " remain (truncated or wrong record size)");
        }
    }

    long getLong() { long v = b.getLong(pos); pos += 8; return v; }

    double getDouble() { double v = b.getDouble(pos); pos += 8; return v; }

    void words(long[] into, int n) throws DarshanFormatException {
        need(8L * n, "record");
        for (int i = 0; i < n; i++) into[i] = b.getLong(pos + 8 * i);
        pos += 8 * n;
    }

    String fixedString(int len) {
        String s = DarshanReader.cString(b.array(), pos, len);
        pos += len;
        return s;
    }

    void skip(int n) { pos += n; }

    DarshanFormatException error(String what) {
        return new DarshanFormatException(region, regionFileOffset, what + " at uncompressed offset " + pos);
    }
}
