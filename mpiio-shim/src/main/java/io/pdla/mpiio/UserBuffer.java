package io.pdla.mpiio;

import io.pdla.access.IoOp;

import java.nio.ByteBuffer;

/**
 * The application's side of a data call, whichever form it came in: an MPJ array with a datatype, or a
 * {@link ByteBuffer} of bytes. The {@link AccessFunnel} validates and transfers both the same way; only
 * how bytes leave and return to memory differs.
 */
sealed interface UserBuffer {
    /** Bytes the call moves if nothing stops it short. */
    long bytes();

    /** The byte stream handed to the interceptor chain: the data to write, or the space a read fills. */
    ByteBuffer stream(IoOp op, Datarep rep) throws MPIIOException;

    /** Puts what a read brought back where the application wants it, and says what the call did. */
    IoStatus completed(IoOp op, ByteBuffer stream, long moved, Datarep rep) throws MPIIOException;

    /** MPJ's convention: elements of a (flattened, validated) datatype in a Java array. */
    record TypedArray(Object array, MemoryLayout layout, FileType type) implements UserBuffer {
        @Override
        public long bytes() {
            return layout.bytes();
        }

        /** Items {@code first .. first+count-1} of this buffer, as a buffer of their own. */
        TypedArray items(long first, int count) {
            return new TypedArray(array, layout.items(first, count), type);
        }

        @Override
        public ByteBuffer stream(IoOp op, Datarep rep) throws MPIIOException {
            if (op != IoOp.WRITE) return layout.receiveBuffer(array, rep);
            ByteBuffer packed = layout.pack(array, rep);
            rep.toFile(packed, type.elementBytes(), 0);
            return packed;
        }

        @Override
        public IoStatus completed(IoOp op, ByteBuffer stream, long moved, Datarep rep) throws MPIIOException {
            if (op == IoOp.READ) {
                rep.fromFile(stream, type.elementBytes(), moved, 0);
                layout.unpack(stream, array, moved, rep);
            }
            return new IoStatus(moved, type.elementBytes());
        }
    }

    /** Java NIO's convention: the bytes between position and limit, the position advanced by what moved. */
    record Bytes(ByteBuffer buffer, int start) implements UserBuffer {
        Bytes(ByteBuffer buffer) {
            this(buffer, buffer.position());
        }

        @Override
        public long bytes() {
            return buffer.limit() - start;
        }

        @Override
        public ByteBuffer stream(IoOp op, Datarep rep) {
            return buffer; // drivers read and write it in place; no copy
        }

        @Override
        public IoStatus completed(IoOp op, ByteBuffer stream, long moved, Datarep rep) {
            buffer.position(Math.toIntExact(start + moved));
            return new IoStatus(moved, 1);
        }
    }
}
