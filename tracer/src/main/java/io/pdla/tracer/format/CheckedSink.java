package io.pdla.tracer.format;

/**
 * A sink that keeps a CRC-32C of the bytes written since the last checkpoint, so that each checkpoint
 * can seal the segment before it.
 */
public interface CheckedSink extends ByteSink {
    /** CRC-32C of the bytes put since the last {@link #checkpointCrcRestartsAfterThis()} (or the start). */
    int crcSinceCheckpoint();

    /** The next segment's CRC starts after the bytes put so far. */
    void checkpointCrcRestartsAfterThis();
}
