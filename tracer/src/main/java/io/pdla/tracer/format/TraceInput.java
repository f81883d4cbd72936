package io.pdla.tracer.format;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Buffered reading of a trace or counter file that knows the byte position of every value (for error
 * messages) and keeps a CRC-32C of the bytes consumed since the last {@link #restartCrc()}.
 */
final class TraceInput implements Closeable {
    private final Path file;
    private final InputStream in;
    private final byte[] buf = new byte[64 * 1024];
    private int pos;
    private int limit;
    private long base;
    private int crcFrom;
    private final CRC32C crc = new CRC32C();

    TraceInput(Path file) throws IOException {
        this.file = file;
        this.in = Files.newInputStream(file);
    }

    Path file() {
        return file;
    }

    long position() {
        return base + pos;
    }

    TraceFormatException error(long at, String problem) {
        return new TraceFormatException(file, at, problem);
    }

    /** True at the end of the file. */
    boolean atEof() throws IOException {
        return pos == limit && !fill();
    }

    private boolean fill() throws IOException {
        crc.update(buf, crcFrom, limit - crcFrom);
        base += limit;
        pos = 0;
        limit = 0;
        crcFrom = 0;
        int n;
        do {
            n = in.read(buf, 0, buf.length);
        } while (n == 0);
        if (n < 0) return false;
        limit = n;
        return true;
    }

    int readByte(String what) throws IOException {
        if (pos == limit && !fill()) throw error(position(), "truncated: file ends inside " + what);
        return buf[pos++] & 0xFF;
    }

    long readVarLong(String what) throws IOException {
        long start = position();
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = readByte(what);
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) return v;
        }
        throw error(start, "corrupt: varint for " + what + " longer than 10 bytes");
    }

    long readSigned(String what) throws IOException {
        return VarInts.unzigzag(readVarLong(what));
    }

    /** An unsigned varint that must fit a non-negative int. */
    int readVarInt(String what) throws IOException {
        long start = position();
        long v = readVarLong(what);
        if (v < 0 || v > Integer.MAX_VALUE) throw error(start, "corrupt: " + what + " " + v + " out of range");
        return (int) v;
    }

    byte[] readBytes(int n, String what) throws IOException {
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) out[i] = (byte) readByte(what);
        return out;
    }

    int readInt(String what) throws IOException {
        return readByte(what) << 24 | readByte(what) << 16 | readByte(what) << 8 | readByte(what);
    }

    long readLong(String what) throws IOException {
        return (long) readInt(what) << 32 | (readInt(what) & 0xFFFFFFFFL);
    }

    /** CRC of the bytes consumed since the last restart. */
    int crc() {
        crc.update(buf, crcFrom, pos - crcFrom);
        crcFrom = pos;
        return (int) crc.getValue();
    }

    void restartCrc() {
        crc.reset();
        crcFrom = pos;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
