package io.pdla.collective;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Collectives among ranks that are threads of one JVM, through shared memory, as MPI libraries do within a
 * node: MPJ Express's multicore collectives cost about 100 µs each here, a shared-memory barrier a few µs,
 * and data changes hands without a copy.
 *
 * <p>One monotone arrival counter is the barrier (generation g ends when it reaches (g+1)·size); each
 * generation publishes into one of two slot rows, alternately, so a row is written again only after every
 * rank has passed the barrier that follows the reads of it. The slots are a plain array: a rank writes its slot
 * before its increment of the counter, and reads the others' after it saw the counter reach the generation's end, so
 * every write happens before every read (the counter is a volatile variable). No method handle or {@code VarHandle}
 * runs per call (an {@code AtomicReferenceArray} is one per access, costly until the JIT has compiled a job's path).
 *
 * <p>A rank that waits spins briefly, then yields, then parks; the rank that completes a generation unparks
 * the parked ones. Yielding is short when the group has many more ranks than the machine has cores: there,
 * hundreds of yielding or timed-polling threads would take the cores from the ranks still on their way.
 */
public final class SharedMemoryExchange implements RankExchange {
    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(Long.getLong("pdla.collective.timeout.seconds", 3600));

    private final String token;
    private final Object[] group;
    private final AtomicLong arrivals;
    private final Object[] slots;
    /**
     * Each rank's thread while it is parked in {@link #arrive}, so the rank completing the generation can wake it:
     * volatile references (a waiter stores itself, then reads the counter; the completing rank increments the counter,
     * then reads these; so one of the two sees the other's write).
     */
    private final AtomicReference<Thread>[] parked;
    private final int yields;
    /** Asked when a wait outlasts {@link #YIELD_NANOS}: park only while the JIT's compilers are at work. */
    private final CompilerActivity compilers;
    private final int rank;
    private final int size;
    private long generation;
    private boolean left;

    private SharedMemoryExchange(String token, Object[] group, int rank, int size) {
        this(token, group, rank, size, new CompilerActivity());
    }

    private SharedMemoryExchange(String token, Object[] group, int rank, int size, CompilerActivity compilers) {
        this.compilers = compilers;
        this.token = token;
        this.group = group;
        this.arrivals = (AtomicLong) group[0];
        this.slots = (Object[]) group[1];
        this.parked = cast(group[5]);
        this.rank = rank;
        this.size = size;
        this.yields = size <= 2 * Runtime.getRuntime().availableProcessors() ? 4096 : 64;
    }

    @SuppressWarnings("unchecked")
    private static AtomicReference<Thread>[] cast(Object o) {
        return (AtomicReference<Thread>[]) o;
    }

    /**
     * One lock for the group's ranks, all threads of this JVM, to order their writes of the file against data sieving's
     * read-modify-writes: an unsieved write holds it shared, a sieved window exclusively. Among threads that is a few
     * atomic operations where a byte-range lock of the file (which ranks in several JVMs need) is two system calls
     * per write.
     */
    public java.util.concurrent.locks.ReadWriteLock writeOrder() {
        return JvmShared.writeOrder(group);
    }

    /** A name unique to this group in the job, the same on every member. */
    public String uniqueName() {
        return JvmShared.uniqueName(group);
    }

    /** Joins the group of {@code token}; usable once every rank has joined (see {@link #complete}). */
    public static SharedMemoryExchange join(String token, int rank, int size) {
        return new SharedMemoryExchange(token, JvmShared.join(token, size), rank, size);
    }

    /** {@link #join} with the compilers' activity as {@code compilers} says (tests: waits that must park, or must not). */
    static SharedMemoryExchange join(String token, int rank, int size, CompilerActivity compilers) {
        return new SharedMemoryExchange(token, JvmShared.join(token, size), rank, size, compilers);
    }

    /** True when all {@code size} ranks joined from this JVM; ask only after a collective that follows every join. */
    public boolean complete() {
        return JvmShared.members(group) == size;
    }

    /** Leaves the group (once; later calls do nothing); the last member to leave removes it. */
    @Override
    public void leave() {
        if (left) return;
        left = true;
        JvmShared.leave(token, group, size);
    }

    public boolean left() {
        return left;
    }

    /** Threads of one JVM move every message the same way: no setting concerns this transport. */
    @Override
    public void configure(CollectiveSettings settings) {
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean sharesMemory() {
        return true;
    }

    @Override
    public void barrier() throws IOException {
        arrive();
    }

    /** Publishes {@code message} in this generation's row, waits for every rank, returns the row's base index. */
    private int publishAndWait(Object message) throws IOException {
        int row = (int) (generation & 1) * size;
        slots[row + rank] = message;   // before the counter's increment in arrive: seen by every rank after the barrier
        arrive();
        return row;
    }

    private void arrive() throws IOException {
        long target = (generation + 1) * size;
        generation++;
        if (arrivals.incrementAndGet() >= target) {
            wakeParked();
            return;
        }
        long spins = 0, start = 0;
        Waiting waiting = null;   // made once the spinning is over: most waits end before
        while (arrivals.get() < target) {
            if (spins < 64) {
                Thread.onSpinWait();
            } else if ((waiting != null ? waiting : (waiting = new Waiting(yields, compilers, YIELD_NANOS, System.nanoTime()))).yieldsNow(System.nanoTime())) {
                Thread.yield(); // more rank threads than cores is the rule on a laptop-sized node
            } else {
                if (start == 0) start = System.nanoTime();
                // published before the check, and the completing rank increments before it looks: one of the two sees the other
                parked[rank].set(Thread.currentThread());
                if (arrivals.get() < target) LockSupport.parkNanos(PARK_NANOS);
                parked[rank].set(null);
                if (System.nanoTime() - start > TIMEOUT_NANOS) {
                    throw new IOException("collective: rank " + rank + " waited " + TimeUnit.NANOSECONDS.toSeconds(TIMEOUT_NANOS)
                            + " s for the other ranks (" + (target - arrivals.get()) + " missing); -Dpdla.collective.timeout.seconds sets the limit");
                }
            }
            spins++;
        }
    }

    /**
     * One wait's choice, once its spinning is over, between yielding the core and parking: yield for {@code yieldNanos};
     * past that, park while the JIT's compilers are at work, else go on yielding; never yield more than {@code yields}
     * times.
     */
    static final class Waiting {
        private final int yields;
        private final CompilerActivity compilers;
        private final long yieldNanos;
        private final long since;
        private int yielded;
        private boolean compilersIdle;   // asked once the wait outlasts yieldNanos, again after each park

        Waiting(int yields, CompilerActivity compilers, long yieldNanos, long now) {
            this.yields = yields;
            this.compilers = compilers;
            this.yieldNanos = yieldNanos;
            this.since = now;
        }

        /** True: yield now; false: park. */
        boolean yieldsNow(long now) {
            if (yielded >= yields) return false;
            boolean yield = compilersIdle || now - since < yieldNanos || (compilersIdle = !compilers.busySinceLastAsked());
            if (yield) yielded++;
            return yield;
        }
    }

    /** Wakes the ranks parked waiting for the generation this rank just completed (a rank of the next one wakes, looks and parks again). */
    private void wakeParked() {
        for (int r = 0; r < size; r++) {
            Thread t = parked[r].get();
            if (t != null) LockSupport.unpark(t);
        }
    }

    /**
     * How long a waiting rank yields before it parks while the JIT's compilers are at work. A wait this long then means
     * a rank the generation needs is not running (preempted by the compiler threads in a job's first iterations): a
     * yielding waiter keeps its core busy, so that core never takes the missing rank over, and takes CPU time the
     * compiler needs; parked, it leaves the core idle and the scheduler moves a runnable thread there. Shorter waits (a
     * rank handing its core to another, 5-20 µs with four ranks on two cores) end while yielding, with no wake-up to
     * pay; so do longer ones while the compilers are idle (steady state, more rank threads than cores: parking after
     * 300 µs there cost collective reads about 30 %), up to the group's yield count.
     */
    private static final long YIELD_NANOS = TimeUnit.MICROSECONDS.toNanos(Long.getLong("pdla.collective.yield.micros", 300));

    /** A parked rank wakes by itself this often only to check the timeout. */
    private static final long PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    @Override
    public long[] allgather(long[] mine) throws IOException {
        int row = publishAndWait(mine.clone());
        int k = mine.length;
        long[] all = new long[k * size];
        for (int r = 0; r < size; r++) System.arraycopy((long[]) slots[row + r], 0, all, r * k, k);
        return all;
    }

    @Override
    public Received exchange(long[][] headers, ByteBuffer[][] payloads) throws IOException {
        int row = publishAndWait(new Object[]{headers, payloads});
        long[][] h = new long[size][];
        ByteBuffer[][] p = new ByteBuffer[size][];
        for (int r = 0; r < size; r++) {
            Object[] m = (Object[]) slots[row + r];
            long[][] hs = (long[][]) m[0];
            ByteBuffer[][] ps = (ByteBuffer[][]) m[1];
            h[r] = hs == null ? null : hs[rank];
            ByteBuffer[] mineFrom = ps == null ? null : ps[rank];
            if (mineFrom != null) {
                ByteBuffer[] copy = new ByteBuffer[mineFrom.length];
                for (int i = 0; i < copy.length; i++) copy[i] = mineFrom[i].duplicate(); // own position and limit
                p[r] = copy;
            }
        }
        return new Received(h, p);
    }
}
