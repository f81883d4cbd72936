package io.pdla.intercept;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;

import java.nio.ByteBuffer;

/**
 * One operation on its way to the driver. For READ and WRITE, {@code extents} are the flattened file
 * ranges and {@code buffer} holds (or receives) their bytes consecutively, in extent order. For SEEK and
 * SET_SIZE {@code argument} is the new position or size; SEEK and SET_VIEW reach the driver as no-ops and
 * exist so that interceptors (the tracer) see them.
 */
public final class IoCall {
    private final FileContext file;
    private final IoOp op;
    private final Positioning positioning;
    private final boolean collective;
    private final ExtentList extents;
    private final ByteBuffer buffer;
    private final long argument;

    private IoCall(FileContext file, IoOp op, Positioning positioning, boolean collective, ExtentList extents,
                   ByteBuffer buffer, long argument) {
        this.file = file;
        this.op = op;
        this.positioning = positioning;
        this.collective = collective;
        this.extents = extents;
        this.buffer = buffer;
        this.argument = argument;
    }

    public static IoCall data(FileContext file, IoOp op, Positioning positioning, boolean collective,
                              ExtentList extents, ByteBuffer buffer) {
        if (!op.movesData()) throw new IllegalArgumentException(op + " is not a data operation");
        if (buffer.remaining() < extents.totalBytes()) {
            throw new IllegalArgumentException("buffer has " + buffer.remaining() + " bytes for an access of " + extents.totalBytes());
        }
        return new IoCall(file, op, positioning, collective, extents, buffer, 0);
    }

    public static IoCall meta(FileContext file, IoOp op, boolean collective, long argument) {
        if (op.movesData()) throw new IllegalArgumentException(op + " is a data operation");
        return new IoCall(file, op, Positioning.NONE, collective, ExtentList.EMPTY, null, argument);
    }

    /** The same call over other extents and buffer: how redirect and delegates re-route part of a request. */
    public IoCall rerouted(ExtentList newExtents, ByteBuffer newBuffer) {
        return new IoCall(file, op, positioning, collective, newExtents, newBuffer, argument);
    }

    public FileContext file() {
        return file;
    }

    public IoOp op() {
        return op;
    }

    public Positioning positioning() {
        return positioning;
    }

    public boolean collective() {
        return collective;
    }

    public ExtentList extents() {
        return extents;
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    public long argument() {
        return argument;
    }

    @Override
    public String toString() {
        return op + (collective ? "(coll," : "(") + positioning + ", " + extents + (op.movesData() ? "" : ", arg=" + argument) + ")";
    }
}
