package io.pdla.tracer.format;

/** Where an encoder puts bytes: a growable array, or the runtime's block buffers. */
public interface ByteSink {
    void put(int b);

    default void putVarLong(long v) {
        while ((v & ~0x7FL) != 0) {
            put((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        put((int) v);
    }

    default void putSigned(long v) {
        putVarLong(VarInts.zigzag(v));
    }

    default void putBytes(byte[] b) {
        for (byte x : b) put(x);
    }
}
