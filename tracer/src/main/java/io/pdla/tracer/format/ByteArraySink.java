package io.pdla.tracer.format;

import java.util.Arrays;
import java.util.zip.CRC32C;

/** A growable in-memory sink that can also say the CRC of what came after the last checkpoint. */
public final class ByteArraySink implements CheckedSink {
    private byte[] bytes = new byte[256];
    private int size;
    private int crcFrom;

    @Override
    public void put(int b) {
        if (size == bytes.length) bytes = Arrays.copyOf(bytes, size * 2);
        bytes[size++] = (byte) b;
    }

    @Override
    public int crcSinceCheckpoint() {
        CRC32C crc = new CRC32C();
        crc.update(bytes, crcFrom, size - crcFrom);
        return (int) crc.getValue();
    }

    @Override
    public void checkpointCrcRestartsAfterThis() {
        crcFrom = size;
    }

    public int size() {
        return size;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }
}
