package io.pdla.tracer.runtime;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.IoCall;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The rank thread's calls, as raw numbers, waiting to be counted and encoded in a batch: a ring with one
 * producer (the rank's owning thread, without any lock) and one consumer at a time (whoever holds the rank
 * tracer's lock: the rank thread when the ring is full or at open, close and aggregator requests, the
 * shutdown hook at the end). The producer publishes a slot by a release store of {@code head}; the consumer
 * frees slots by a volatile store of {@code tail}, so the producer never overwrites a slot being read.
 *
 * <p>A call of one extent is kept as numbers; a call of up to {@value #MAX_LISTED_EXTENTS} extents keeps
 * its (immutable) extent list; larger calls are not queued (the caller records them under the lock at
 * once), so what a full ring holds on to stays small.
 */
final class PendingCalls {
    static final int MAX_LISTED_EXTENTS = 64;
    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(PendingCalls.class, "head", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** What the consumer does with each call, in the order the calls were made. */
    interface Consumer {
        void call(TracedFile file, IoOp op, Positioning positioning, boolean collective, ExtentList extents,
                  long offset, long length, long argument, long moved, long t1, long t2);
    }

    private static final IoOp[] OPS = IoOp.values();
    private static final Positioning[] POSITIONINGS = Positioning.values();
    private static final int COLLECTIVE = 1 << 8;

    private final int capacity;
    private final int mask;
    private final long[] numbers;
    private final int[] kinds;
    private final TracedFile[] files;
    private final ExtentList[] lists;
    /** Written by the producer only (plain, then published with a release store). */
    @SuppressWarnings("unused")
    private long head;
    private volatile long tail;

    PendingCalls(int capacityPowerOfTwo) {
        if (Integer.bitCount(capacityPowerOfTwo) != 1) throw new IllegalArgumentException("capacity must be a power of two, was " + capacityPowerOfTwo);
        this.capacity = capacityPowerOfTwo;
        this.mask = capacityPowerOfTwo - 1;
        this.numbers = new long[capacityPowerOfTwo * 5];
        this.kinds = new int[capacityPowerOfTwo];
        this.files = new TracedFile[capacityPowerOfTwo];
        this.lists = new ExtentList[capacityPowerOfTwo];
    }

    /** Queues a completed call; false when the ring is full or the call is too large to queue. Producer only. */
    boolean offer(TracedFile file, IoCall call, long moved, long t1, long t2) {
        long h = head;
        if (h - tail == capacity) return false;
        ExtentList extents = call.extents();
        int n = extents.size();
        if (n > MAX_LISTED_EXTENTS) return false;
        int i = (int) h & mask;
        int at = i * 5;
        if (n == 1) {
            numbers[at] = extents.offset(0);
            numbers[at + 1] = extents.length(0);
        } else {
            numbers[at] = call.argument();
            if (n > 1) lists[i] = extents;
        }
        numbers[at + 2] = moved;
        numbers[at + 3] = t1;
        numbers[at + 4] = t2;
        kinds[i] = call.op().ordinal() | call.positioning().ordinal() << 4 | (call.collective() ? COLLECTIVE : 0) | (n == 1 ? 1 << 9 : 0);
        files[i] = file;
        HEAD.setRelease(this, h + 1);
        return true;
    }

    /**
     * Hands every queued call to {@code consumer}, oldest first; {@code extents} is null for a call of one
     * extent ({@code offset}, {@code length}). Only under the rank tracer's lock; the consumer must not throw.
     */
    void drain(Consumer consumer) {
        long h = (long) HEAD.getAcquire(this);
        for (long k = tail; k < h; k++) {
            int i = (int) k & mask;
            int at = i * 5;
            int kind = kinds[i];
            boolean single = (kind & 1 << 9) != 0;
            ExtentList list = lists[i];
            if (list != null) lists[i] = null;
            ExtentList extents = single ? null : list != null ? list : ExtentList.EMPTY;
            consumer.call(files[i], OPS[kind & 0xF], POSITIONINGS[kind >>> 4 & 0xF], (kind & COLLECTIVE) != 0, extents,
                    single ? numbers[at] : 0, single ? numbers[at + 1] : 0, single ? 0 : numbers[at],
                    numbers[at + 2], numbers[at + 3], numbers[at + 4]);
        }
        tail = h;
    }

    boolean isEmpty() {
        return (long) HEAD.getAcquire(this) == tail;
    }
}
