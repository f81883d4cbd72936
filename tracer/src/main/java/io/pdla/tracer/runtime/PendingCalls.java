package io.pdla.tracer.runtime;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.IoCall;

/**
 * The rank thread's calls, as raw numbers, waiting to be counted and encoded in a batch: a ring with one
 * producer (the rank's owning thread, without any lock) and one consumer at a time (whoever holds the rank
 * tracer's lock: the rank thread when the ring is full or at open, close and aggregator requests, the
 * shutdown hook at the end). The producer publishes a slot by a volatile store of {@code head}; the consumer
 * frees slots by a volatile store of {@code tail}, so the producer never overwrites a slot being read.
 *
 * <p>A call of one extent is kept as numbers; a call of up to {@value #MAX_LISTED_EXTENTS} extents keeps
 * its (immutable) extent list; larger calls are not queued (the caller records them under the lock at
 * once), so what a full ring holds on to stays small.
 */
final class PendingCalls {
    static final int MAX_LISTED_EXTENTS = 64;

    /** What the consumer does with the calls, in the order they were made; times are as offered minus the origin. */
    interface Consumer {
        /** One call; {@code extents} is null for a call of one extent ({@code offset}, {@code length}). */
        void call(TracedFile file, IoOp op, Positioning positioning, boolean collective, ExtentList extents,
                  long offset, long length, long argument, long moved, long t1, long t2);

        /**
         * {@code n >= 2} consecutive calls of one extent each, same file, operation, positioning and flag,
         * all of {@code length} bytes, each moving all of them, call k at {@code first + k * stride}; their
         * start and end times are {@code starts[from + k]}, {@code ends[from + k]}, which the consumer may change in place.
         */
        void run(TracedFile file, IoOp op, Positioning positioning, boolean collective, long first, long stride,
                 long length, int n, long[] starts, long[] ends, int from);
    }

    private static final IoOp[] OPS = IoOp.values();
    private static final Positioning[] POSITIONINGS = Positioning.values();
    private static final int COLLECTIVE = 1 << 8;
    private static final int SINGLE = 1 << 9;

    private final int capacity;
    private final int mask;
    /**
     * Subtracted from each call's times as it is queued (the rank's clock origin): the batch then needs no pass
     * over the times to rebase them, a loop the JIT compiled on its own (on-stack replacement) in every rank.
     */
    private final long origin;
    /** Per slot: the extent's offset (or the call's argument), its length, the bytes moved. */
    private final long[] offsets;
    private final long[] lengths;
    private final long[] moved;
    /** Start and end times apart, so that a run's times are two contiguous slices. */
    private final long[] starts;
    private final long[] ends;
    private final int[] kinds;
    private final TracedFile[] files;
    private final ExtentList[] lists;
    /**
     * Written by the producer only. A volatile field rather than a VarHandle release store: it costs one
     * fence per call, and compiles to plain code at every tier (under MPJ multicore each rank's copy of this
     * class is compiled on its own, so much of a short run goes through unoptimised code).
     */
    private volatile long head;
    private volatile long tail;

    PendingCalls(int capacityPowerOfTwo) {
        this(capacityPowerOfTwo, 0);
    }

    PendingCalls(int capacityPowerOfTwo, long origin) {
        this.origin = origin;
        if (Integer.bitCount(capacityPowerOfTwo) != 1) throw new IllegalArgumentException("capacity must be a power of two, was " + capacityPowerOfTwo);
        this.capacity = capacityPowerOfTwo;
        this.mask = capacityPowerOfTwo - 1;
        this.offsets = new long[capacityPowerOfTwo];
        this.lengths = new long[capacityPowerOfTwo];
        this.moved = new long[capacityPowerOfTwo];
        this.starts = new long[capacityPowerOfTwo];
        this.ends = new long[capacityPowerOfTwo];
        this.kinds = new int[capacityPowerOfTwo];
        this.files = new TracedFile[capacityPowerOfTwo];
        this.lists = new ExtentList[capacityPowerOfTwo];
    }

    /** Queues a completed call; false when the ring is full or the call is too large to queue. Producer only. */
    boolean offer(TracedFile file, IoCall call, long bytesMoved, long t1, long t2) {
        long h = head;
        if (h - tail == capacity) return false;
        ExtentList extents = call.extents();
        int n = extents.size();
        if (n > MAX_LISTED_EXTENTS) return false;
        int i = (int) h & mask;
        if (n == 1) {
            offsets[i] = extents.offset(0);
            lengths[i] = extents.length(0);
        } else {
            offsets[i] = call.argument();
            if (n > 1) lists[i] = extents;
        }
        moved[i] = bytesMoved;
        starts[i] = t1 - origin;
        ends[i] = t2 - origin;
        kinds[i] = call.op().ordinal() | call.positioning().ordinal() << 4 | (call.collective() ? COLLECTIVE : 0) | (n == 1 ? SINGLE : 0);
        files[i] = file;
        head = h + 1;
        return true;
    }

    /** {@link #offer} of an independent data call of one extent, given by its parts rather than an {@link IoCall}. Producer only. */
    boolean offerOne(TracedFile file, IoOp op, Positioning positioning, long offset, long length, long bytesMoved, long t1, long t2) {
        long h = head;
        if (h - tail == capacity) return false;
        int i = (int) h & mask;
        offsets[i] = offset;
        lengths[i] = length;
        moved[i] = bytesMoved;
        starts[i] = t1 - origin;
        ends[i] = t2 - origin;
        kinds[i] = op.ordinal() | positioning.ordinal() << 4 | SINGLE;
        files[i] = file;
        head = h + 1;
        return true;
    }

    /**
     * Hands every queued call to {@code consumer}, oldest first, consecutive calls of one pattern as runs.
     * Only under the rank tracer's lock. Should the consumer throw (an {@link Error}: it catches the rest), the
     * call or run it was given is dropped and the ones before it stay consumed: a later drain never counts a
     * call twice.
     */
    void drain(Consumer consumer) {
        long h = head;
        long k = tail;
        try {
            while (k < h) {
                int i = (int) k & mask;
                int kind = kinds[i];
                int n = runLength(i, (int) Math.min(h - k, capacity - i));
                k += n;   // before the consumer runs: should it throw, this call or run is dropped, never counted twice
                if (n >= 2) {
                    consumer.run(files[i], OPS[kind & 0xF], POSITIONINGS[kind >>> 4 & 0xF], (kind & COLLECTIVE) != 0,
                            offsets[i], offsets[i + 1] - offsets[i], lengths[i], n, starts, ends, i);
                    continue;
                }
                boolean single = (kind & SINGLE) != 0;
                ExtentList list = lists[i];
                if (list != null) lists[i] = null;
                ExtentList extents = single ? null : list != null ? list : ExtentList.EMPTY;
                consumer.call(files[i], OPS[kind & 0xF], POSITIONINGS[kind >>> 4 & 0xF], (kind & COLLECTIVE) != 0, extents,
                        single ? offsets[i] : 0, single ? lengths[i] : 0, single ? 0 : offsets[i], moved[i], starts[i], ends[i]);
            }
        } finally {
            tail = k;
        }
    }

    /** How many calls from slot {@code i} (at most {@code limit}, not past the ring's end) form one run. */
    private int runLength(int i, int limit) {
        int kind = kinds[i];
        if ((kind & SINGLE) == 0 || !OPS[kind & 0xF].movesData() || moved[i] < lengths[i] || limit < 2) return 1;
        TracedFile f = files[i];
        long length = lengths[i];
        long stride = offsets[i + 1] - offsets[i];
        int n = 1;
        while (n < limit) {
            int j = i + n;
            if (kinds[j] != kind || files[j] != f || lengths[j] != length || moved[j] < length
                    || offsets[j] - offsets[j - 1] != stride) break;
            n++;
        }
        return n;
    }

    boolean isEmpty() {
        return head == tail;
    }
}
