package io.pdla.darshan;

/** The header's comp_type byte. */
public enum Compression {
    ZLIB, BZIP2, NONE;

    static Compression of(int code, long offset) throws DarshanFormatException {
        return switch (code) {
            case 0 -> ZLIB;
            case 1 -> BZIP2;
            case 2 -> NONE;
            default -> throw new DarshanFormatException("header", offset, "unknown compression type " + code);
        };
    }
}
