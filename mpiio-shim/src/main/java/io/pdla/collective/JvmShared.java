package io.pdla.collective;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * State that the ranks of one JVM share. Under MPJ's multicore device every rank loads pdla with its own
 * class loader, so a static field is per rank; only objects of JDK classes, reached from a JDK-owned root,
 * are seen by all. The root is one entry of the system properties (a Hashtable that accepts any value);
 * everything placed under it is a JDK type, never a pdla class (another rank's copy of a pdla class is a
 * different class to this one).
 */
public final class JvmShared {
    private static final String ROOT = "io.pdla.mpiio.jvm-shared";

    private JvmShared() {
    }

    private static Map<String, Object[]> root() {
        return map(ROOT);
    }

    /**
     * The JVM-wide map kept under the system property {@code name}, made by the first rank to ask: what every
     * rank of the JVM sees, whatever its class loader. Its values must be JDK objects (arrays of them included).
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object[]> map(String name) {
        Object r = System.getProperties().get(name);
        if (r == null) {
            synchronized (System.getProperties()) {
                r = System.getProperties().get(name);
                if (r == null) {
                    r = new ConcurrentHashMap<String, Object[]>();
                    System.getProperties().put(name, r);
                }
            }
        }
        return (Map<String, Object[]>) r;
    }

    /**
     * The group of the file opened under {@code token}: [arrivals (AtomicLong), slots (an Object[] of two generations
     * of {@code size} references), members joined (AtomicInteger), members left (AtomicInteger), a job-unique
     * name drawn by the first rank to join (String), the parked thread of each rank or null
     * (an array of AtomicReference of Thread), the order of the ranks' writes against data sieving's read-modify-writes
     * (a StampedLock's ReadWriteLock view, not reentrant, see {@link SharedMemoryExchange#writeOrder})].
     */
    static Object[] join(String token, int size) {
        Map<String, Object[]> groups = root();   // a ConcurrentHashMap: putIfAbsent is atomic
        Object[] g = groups.get(token);   // no computeIfAbsent lambda: this runs in every rank's first open
        if (g == null) {
            Object[] made = {new AtomicLong(), new Object[2 * size], new AtomicInteger(), new AtomicInteger(),
                    java.util.UUID.randomUUID().toString(), parkedThreads(size),
                    // a StampedLock's view, not a ReentrantReadWriteLock: its read lock keeps no per-thread hold count
                    // (a ThreadLocal set and removed by every write), half of an unsieved 16 KiB write's time while the
                    // path is interpreted; nothing takes it twice on one thread
                    new java.util.concurrent.locks.StampedLock().asReadWriteLock()};
            g = groups.putIfAbsent(token, made);
            if (g == null) g = made;
        }
        ((AtomicInteger) g[2]).incrementAndGet();
        return g;
    }

    @SuppressWarnings("unchecked")
    private static AtomicReference<Thread>[] parkedThreads(int size) {
        AtomicReference<Thread>[] parked = new AtomicReference[size];
        for (int r = 0; r < size; r++) parked[r] = new AtomicReference<>();
        return parked;
    }

    static String uniqueName(Object[] group) {
        return (String) group[4];
    }

    static java.util.concurrent.locks.ReadWriteLock writeOrder(Object[] group) {
        return (java.util.concurrent.locks.ReadWriteLock) group[6];
    }

    static int members(Object[] group) {
        return ((AtomicInteger) group[2]).get();
    }

    /** The last rank to leave removes the group. */
    static void leave(String token, Object[] group, int size) {
        if (((AtomicInteger) group[3]).incrementAndGet() >= ((AtomicInteger) group[2]).get()) root().remove(token, group);
    }
}
