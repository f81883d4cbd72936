package io.pdla.replicator.construct;

import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Logger;

/**
 * Syncs the replicas of a copy while it goes on, every {@code everyBytes} written into one of them, on a thread of its
 * own: on a store whose writes wait in the page cache ({@code Capability.BUFFERED_WRITES}) nothing reaches the disk
 * before the builder's sync otherwise (the kernel starts writing back at a tenth of the memory, 2.3 GB here), so a
 * 512 MiB replica's sync wrote it all after the copy, 1.1-1.7 s during which the job's reads shared the disk with it
 * (bench/RESULTS-online.md, session 27). Synced along the way, the writes overlap the copy's reads and the final sync
 * has only the tail left.
 *
 * <p>Replicas are now written around the page cache where the store can (O_DIRECT on POSIX, session 28), so little
 * waits in the cache; the syncs stay, to push the device's own write cache out along the way rather than all in the
 * final sync (reasoned, and seen in a few runs only: 0.1-0.6 s for that sync without them, 2-130 ms with them).
 *
 * <p>A hint only: the builder's own sync after the copy is what makes a replica durable before it is published, so a
 * sync that fails here is logged and this stops; {@link #close} waits for one in progress, since the builder then
 * renames, digests or deletes the file.
 */
final class WriteBehind implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(WriteBehind.class.getName());
    /** What a copy syncs at a time when its store takes {@code BUFFERED_WRITES}: a few tenths of a second of this disk's writes. */
    static final long DEFAULT_EVERY_BYTES = 32L << 20;

    private final long everyBytes;
    /** Bytes written and not yet synced, per output (identity: members of a combined replica share one). Guarded by this. */
    private final Map<StorageFile, long[]> unsynced = new IdentityHashMap<>();
    private final Thread thread;
    private volatile boolean closed;
    private volatile long syncs;

    WriteBehind(long everyBytes) {
        this.everyBytes = everyBytes;
        this.thread = new Thread(this::run, "pdla-replica-write-behind");
        thread.setDaemon(true);
        thread.start();
    }

    /** {@code bytes} more were written into {@code out} (the writer's thread). */
    void wrote(StorageFile out, long bytes) {
        boolean due;
        synchronized (this) {
            long[] n = unsynced.computeIfAbsent(out, k -> new long[1]);
            n[0] += bytes;
            due = n[0] >= everyBytes;
        }
        if (due) LockSupport.unpark(thread);
    }

    /** Syncs made so far (tests, and the builder's figures). */
    long syncs() {
        return syncs;
    }

    private void run() {
        while (!closed) {
            StorageFile due = null;
            synchronized (this) {
                for (Map.Entry<StorageFile, long[]> e : unsynced.entrySet()) {
                    if (e.getValue()[0] >= everyBytes) {
                        due = e.getKey();
                        e.getValue()[0] = 0;   // what is written from now on waits for the next sync
                        break;
                    }
                }
            }
            if (due == null) {
                LockSupport.parkNanos(this, 50_000_000L);
                continue;
            }
            try {
                due.sync();
                syncs++;
            } catch (IOException | RuntimeException e) {
                LOG.fine(() -> "write-behind of a replica stopped (the builder's own sync decides): " + e);
                return;
            }
        }
    }

    /** Stops; returns once a sync in progress has ended. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
        ReplicaWriter.joinUninterruptibly(thread);
    }
}
