package io.pdla.tracer.format;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;

import java.nio.charset.StandardCharsets;

/**
 * Constants of the per-rank binary trace format, version {@value #VERSION}. The byte layout is described
 * in {@code tracer/README.md}; the writer is {@link TraceEncoder}, the reader {@link TraceFileReader}.
 */
public final class TraceFormat {
    public static final byte[] MAGIC = "PDLATRC\0".getBytes(StandardCharsets.US_ASCII);
    public static final int VERSION = 1;
    /** magic 8 + version 2 + flags 2 + rank 4 + nprocs 4 + pid 8 + origin epoch 8 + origin nanoTime 8 + clock domain 8. */
    public static final int HEADER_BYTES = 52;

    public static final int TAG_FILE = 1;
    public static final int TAG_RUN = 2;
    public static final int TAG_CHECKPOINT = 3;
    public static final int TAG_END = 4;

    public static final int TIMING_SAME = 0;
    public static final int TIMING_UNIFORM = 1;
    public static final int TIMING_EXPLICIT = 2;
    /** Consecutive requests sharing start and end (the extents of one call) stored once per group. */
    public static final int TIMING_GROUPED = 3;

    /** Runs are cut at this many requests so that the encoder's memory stays bounded. */
    public static final int MAX_RUN = 1 << 16;

    private static final IoOp[] OPS = IoOp.values();
    private static final Positioning[] POSITIONINGS = Positioning.values();

    private TraceFormat() {
    }

    /** The application layer's trace of a rank; {@link TraceLayer#fileName} names the others. */
    public static String fileName(int rank) {
        return TraceLayer.APPLICATION.fileName(rank);
    }

    /** Operation in bits 0-2, positioning in bits 3-4, collective in bit 5. */
    public static int kind(IoOp op, Positioning positioning, boolean collective) {
        return op.ordinal() | positioning.ordinal() << 3 | (collective ? 1 << 5 : 0);
    }

    public static boolean validKind(int kind) {
        return (kind & ~0x3F) == 0 && (kind & 7) < OPS.length && (kind >> 3 & 3) < POSITIONINGS.length;
    }

    public static IoOp op(int kind) {
        return OPS[kind & 7];
    }

    public static Positioning positioning(int kind) {
        return POSITIONINGS[kind >> 3 & 3];
    }

    public static boolean collective(int kind) {
        return (kind & 1 << 5) != 0;
    }
}
