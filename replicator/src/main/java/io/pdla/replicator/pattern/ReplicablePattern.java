package io.pdla.replicator.pattern;

import java.util.ArrayList;
import java.util.List;

/**
 * What the replicator and the redirect layer need from an access pattern: its key, and a closed form that
 * maps between original offsets and positions in the replica (the pattern's bytes in pattern order) in
 * constant time per call. A pattern never touches a byte twice, so the mapping is one-to-one.
 *
 * <p>The analyzer's patterns are adapted to this interface; {@link NestedStridedPattern} is the one
 * concrete closed form here.
 */
public interface ReplicablePattern {
    PatternKey key();

    /** Bytes the pattern touches: the size of its replica. */
    long totalBytes();

    /** Position in the replica of the byte at original {@code offset}, or -1 if the pattern does not touch it. */
    long positionOf(long offset);

    /** Original offset of the byte at replica {@code position} (0 &le; position &lt; totalBytes). */
    long offsetAt(long position);

    /**
     * Bytes from {@code offset} onward that are in the pattern and consecutive both in the original and in
     * the replica (to the end of the pattern's block); 0 if {@code offset} is outside.
     */
    long runLengthAt(long offset);

    /** The smallest offset &ge; {@code offset} that the pattern touches, or -1 if none. */
    long nextCoveredOffset(long offset);

    /** Streams the pattern's extents in pattern order (the order of the replica). */
    void forEachExtent(ExtentSink sink);

    /** Request size and number of requests, what the cost model needs (offsets do not enter it). */
    RequestShape requestShape();

    /** Stable encoding for the queue and the catalog; {@link PatternCodec} decodes it. */
    byte[] encode();

    /** One line for logs and {@code pdla replicas show}. */
    String describe();

    /** Whether any byte of {@code [offset, offset + length)} is in the pattern. */
    default boolean overlaps(long offset, long length) {
        if (length <= 0) return false;
        long next = nextCoveredOffset(offset);
        return next >= 0 && next < offset + length;
    }

    /**
     * Splits {@code [offset, offset + length)} into segments in file order, each either in the pattern (with
     * its replica offset) or outside it. Adjacent segments that stay consecutive in the replica are merged.
     */
    default List<Segment> map(long offset, long length) {
        List<Segment> out = new ArrayList<>(2);
        long o = offset;
        long end = offset + length;
        while (o < end) {
            long pos = positionOf(o);
            if (pos >= 0) {
                long run = Math.min(runLengthAt(o), end - o);
                Segment last = out.isEmpty() ? null : out.get(out.size() - 1);
                if (last != null && last.inPattern() && last.replicaOffset() + last.length() == pos) {
                    out.set(out.size() - 1, new Segment(last.offset(), last.length() + run, last.replicaOffset()));
                } else {
                    out.add(new Segment(o, run, pos));
                }
                o += run;
            } else {
                long next = nextCoveredOffset(o);
                long stop = next < 0 || next > end ? end : next;
                out.add(new Segment(o, stop - o, -1));
                o = stop;
            }
        }
        return out;
    }

    /** Receives extents in pattern order. */
    @FunctionalInterface
    interface ExtentSink {
        void accept(long offset, long length);
    }

    /** {@code requests} requests of {@code requestSize} bytes. */
    record RequestShape(long requestSize, long requests) {
    }
}
