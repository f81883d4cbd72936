package io.pdla.mpiio.launch;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiConsumer;

/**
 * The delegates' mailboxes of a job whose ranks all run in one JVM (MPJ's multicore device): one request queue
 * per delegate and one reply queue per application rank, so a request costs a hand-over between threads
 * instead of two MPJ messages each way. Every rank loads pdla with its own class loader, so the mailboxes
 * are JDK objects in a {@link io.pdla.collective.JvmShared#map JVM-wide map}, never pdla classes. A request is
 * {@code Object[]{Integer source, byte[] message}}; a reply {@code Object[]{Integer delegate, byte[] reply}}.
 * Requests are served by the delegates' registered handlers on the sending rank's thread; the request queues
 * carry the ranks' goodbyes.
 */
final class SharedMailboxes {
    private static final String ROOT = "io.pdla.mpiio.delegate-mailboxes";

    final LinkedBlockingQueue<Object[]>[] requests;
    final LinkedBlockingQueue<Object[]>[] replies;
    /**
     * Each delegate's request handler, {@code BiConsumer<Integer source, byte[] request>}: an application rank
     * runs it on its own thread (the delegate's state is guarded by the handler), which saves the two thread
     * hand-overs a queued request costs. Registered before any application rank sends (a barrier follows).
     */
    private final AtomicReferenceArray<Object> handlers;

    /**
     * Per delegate, the URIs of the files it has open ({@link io.pdla.delegate.service.DelegateServer}'s
     * {@code openHere}): an application rank reads them to know that no delegate caches a page of a file.
     */
    final Set<String>[] openFiles;

    private SharedMailboxes(Object[] boxes) {
        this.requests = cast(boxes[0]);
        this.replies = cast(boxes[1]);
        this.handlers = handlers(boxes[2]);
        this.openFiles = sets(boxes[3]);
    }

    @SuppressWarnings("unchecked")
    private static Set<String>[] sets(Object o) {
        return (Set<String>[]) o;
    }

    private static Set<?>[] openFileSets(int n) {
        Set<?>[] s = new Set<?>[n];
        for (int i = 0; i < n; i++) s[i] = ConcurrentHashMap.<String>newKeySet();
        return s;
    }

    @SuppressWarnings("unchecked")
    private static AtomicReferenceArray<Object> handlers(Object o) {
        return (AtomicReferenceArray<Object>) o;
    }

    void register(int delegate, BiConsumer<Integer, byte[]> handler) {
        handlers.set(delegate, handler);
    }

    /** Delegate {@code delegate}'s handler, or null before it registered. */
    @SuppressWarnings("unchecked")
    BiConsumer<Integer, byte[]> handler(int delegate) {
        return (BiConsumer<Integer, byte[]>) handlers.get(delegate);
    }

    @SuppressWarnings("unchecked")
    private static LinkedBlockingQueue<Object[]>[] cast(Object o) {
        return (LinkedBlockingQueue<Object[]>[]) o;
    }

    /** The mailboxes of the job named {@code job} (the same name on every rank), made by the first rank to ask. */
    static SharedMailboxes of(String job, int applications, int delegates) {
        Object[] boxes = root().computeIfAbsent(job, k -> new Object[]{queues(delegates), queues(applications),
                new AtomicReferenceArray<Object>(delegates), openFileSets(delegates)});
        return new SharedMailboxes(boxes);
    }

    private static LinkedBlockingQueue<?>[] queues(int n) {
        LinkedBlockingQueue<?>[] q = new LinkedBlockingQueue<?>[n];
        for (int i = 0; i < n; i++) q[i] = new LinkedBlockingQueue<Object[]>();
        return q;
    }

    private static Map<String, Object[]> root() {
        return io.pdla.collective.JvmShared.map(ROOT);
    }
}
