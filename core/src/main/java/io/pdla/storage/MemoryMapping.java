package io.pdla.storage;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Zero-copy access to an open file's bytes through memory mappings: a capability a store's file offers through
 * {@link StorageFile#memoryMapping()}, which the two-phase engine asks for instead of knowing which store maps.
 * Each call may still decline for its range (too small, not mappable now), and the caller then copies as usual.
 */
public interface MemoryMapping {
    /**
     * A read-only view of bytes {@code [offset, offset + length)} of the file, valid while the file is open, that
     * costs no copy, or null when the store cannot give one for that range. The two-phase engine hands slices of it
     * to ranks sharing memory, so a collective read copies each byte once.
     */
    ByteBuffer mappedView(long offset, int length) throws IOException;

    /**
     * Fills bytes {@code [offset, offset + length)} of the file through a writable memory mapping, one copy per
     * byte: {@code fill} gets a buffer whose position 0 is file offset {@code offset}; bytes it does not put keep
     * the file's contents (zeros past the old end), and the last byte of the range must be one it puts. Returns
     * false, having written nothing, when the store cannot map the range (the caller then writes as usual). The
     * buffer is unmapped when this returns: {@code fill} must not keep it.
     */
    boolean writeMapped(long offset, int length, MappedFill fill) throws IOException;

    /** What {@link #writeMapped} runs on the mapping. */
    @FunctionalInterface
    interface MappedFill {
        void fill(ByteBuffer mapping) throws IOException;
    }
}
