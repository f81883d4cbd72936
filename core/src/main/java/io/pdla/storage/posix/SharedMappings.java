package io.pdla.storage.posix;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The memory mappings of read-only files, one per (file, size) for the whole JVM while any handle has the file
 * open. Ranks of MPJ's multicore device are threads of one JVM that open the same file each on their own; with a
 * mapping each, a page the kernel maps on one rank's first touch (64 KiB at a time, its fault-around) is faulted
 * again by every other rank, and strided reads pay the faults as many times as there are ranks. Sharing the
 * mapping pays each once.
 *
 * <p>Each rank loads pdla with its own class loader, so what is shared must be JDK objects under a JDK-owned root
 * (a system property), never a pdla class. An entry is [chunks (AtomicReferenceArray of MappedByteBuffer),
 * handles using it (AtomicInteger)]; the last handle to close removes it, so a deleted file's mapping becomes
 * garbage (and its space free) as the file is closed. Sizes and identities come from the file at open: an entry
 * is shared only by handles that saw the same file (device and inode) with the same size.
 */
final class SharedMappings {
    private static final String ROOT = "io.pdla.storage.posix.shared-mappings";

    private SharedMappings() {
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object[]> root() {
        Object r = System.getProperties().get(ROOT);
        if (r == null) {
            synchronized (System.getProperties()) {
                r = System.getProperties().get(ROOT);
                if (r == null) {
                    r = new ConcurrentHashMap<String, Object[]>();
                    System.getProperties().put(ROOT, r);
                }
            }
        }
        return (Map<String, Object[]>) r;
    }

    /** A handle's use of the shared mapping of its file: take chunks from it, release it at close. */
    static final class Use {
        private final String key;
        private final Object[] entry;
        private boolean released;

        private Use(String key, Object[] entry) {
            this.key = key;
            this.entry = entry;
        }

        @SuppressWarnings("unchecked")
        private AtomicReferenceArray<MappedByteBuffer> chunks() {
            return (AtomicReferenceArray<MappedByteBuffer>) entry[0];
        }

        /** Chunk {@code index} of the file, mapped through {@code channel} by the first handle to need it. */
        MappedByteBuffer chunk(int index, FileChannel channel, long start, long length) throws IOException {
            AtomicReferenceArray<MappedByteBuffer> chunks = chunks();
            MappedByteBuffer m = chunks.get(index);
            if (m != null) return m;
            synchronized (chunks) {
                m = chunks.get(index);
                if (m == null) {
                    // the mapping outlives the channel that made it: other handles keep using it after this one closes
                    m = channel.map(FileChannel.MapMode.READ_ONLY, start, length);
                    chunks.set(index, m);
                }
            }
            return m;
        }

        synchronized void release() {
            if (released) return;
            released = true;
            if (((AtomicInteger) entry[1]).decrementAndGet() == 0) root().remove(key, entry);
        }
    }

    /** The use of the JVM-wide mapping of {@code path} as {@code chunkCount} chunks, for a handle that found it {@code size} bytes long. */
    static Use use(Path path, long size, int chunkCount) throws IOException {
        Object identity = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        if (identity == null) identity = path.toRealPath();   // a file system without inode numbers: the path is the best we have
        String key = identity + "#" + size;
        Object[] entry = root().computeIfAbsent(key, k -> new Object[]{new AtomicReferenceArray<MappedByteBuffer>(chunkCount), new AtomicInteger()});
        // a handle that joins an entry its last user is just removing keeps a mapping of its own: never shared, still right
        ((AtomicInteger) entry[1]).incrementAndGet();
        return new Use(key, entry);
    }

    /** Files mapped by open handles right now (tests). */
    static int entries() {
        return root().size();
    }
}
