package io.pdla.delegate.cache;

import io.pdla.access.ExtentList;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.HashSet;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One delegate's write-back cache of file pages, bounded in bytes, evicting the least recently used page
 * (writing it back first when dirty). A page is a fixed, page-aligned range of one file; the delegate that
 * owns a page is the only one that caches it, so no coherence traffic is needed.
 *
 * <p>Writes never read: a page remembers which of its bytes are dirty, and a flush writes only those runs
 * (a fully written page is one aligned, page-sized request). A read of bytes that are neither dirty nor
 * loaded loads the whole page from storage under the dirty bytes, and with it the rest of the page's
 * read-ahead block in the delegate's own domain ({@link ReadAhead}), as far as the cache has room without
 * evicting a dirty page.
 */
public final class PageCache {
    private long capacityBytes;
    private final LinkedHashMap<PageKey, Page> pages = new LinkedHashMap<>(64, 0.75f, true);
    private long usedBytes;
    /** Reads served so far: numbers each read, to tell its pages apart. */
    private long reads;
    private final CacheCounters counters = new CacheCounters();

    public PageCache(long capacityBytes) {
        if (capacityBytes <= 0) throw new IllegalArgumentException("delegate cache capacity must be > 0 bytes, was " + capacityBytes);
        this.capacityBytes = capacityBytes;
    }

    /** Changes the bound; pages over it are written back and evicted at the next access. */
    public void capacity(long bytes) {
        if (bytes <= 0) throw new IllegalArgumentException("delegate cache capacity must be > 0 bytes, was " + bytes);
        this.capacityBytes = bytes;
    }

    public CacheCounters counters() {
        return counters;
    }

    public long usedBytes() {
        return usedBytes;
    }

    /** Copies {@code length} bytes of {@code src} to the file at {@code offset}, in the cache only. */
    public void write(CachedFile file, long offset, ByteBuffer src, long length) throws IOException {
        eachPiece(file, offset, length, (p, from, to) -> {
            src.get(p.data, from, to - from);
            p.dirty.set(from, to);
            file.noteWritten(p.index * file.pageSize() + to);
        });
        counters.bytesWritten += length;
        evictOverCapacity();
    }

    /**
     * Fills {@code dst} with the bytes of {@code extents}, in list order (zeros past the end). The pages the
     * extents miss are loaded first, with the pages of their read-ahead blocks ({@link ReadAhead}) that are not
     * cached yet, in offset order and as few storage requests as {@link #FLUSH_BATCH_BYTES} allows, as a flush
     * writes them: a strided view's request touches pages far apart, and loading them one by one in the
     * request's order sent a striped store one small request per page, out of file order; loading only the
     * missed ones left gaps, so a server read its share in pieces, one rank's request at a time.
     */
    public void read(CachedFile file, ExtentList extents, ByteBuffer dst) throws IOException {
        TreeMap<Long, Page> missing = new TreeMap<>();
        long request = ++reads;
        for (int i = 0; i < extents.size(); i++) {
            eachPiece(file, extents.offset(i), extents.length(i), (p, from, to) -> {
                p.readBy = request;
                if (!p.loaded && p.dirty.nextClearBit(from) < to) missing.put(p.index, p);
            });
        }
        if (!missing.isEmpty()) {
            TreeMap<Long, Page> loads = new TreeMap<>(missing);
            addReadAhead(file, missing, request, loads);
            counters.misses += missing.size();
            counters.readAhead += loads.size() - missing.size();
            List<Page> batch = new ArrayList<>();
            for (Page p : loads.values()) {
                if (!batch.isEmpty() && (long) (batch.size() + 1) * file.pageSize() > FLUSH_BATCH_BYTES) {
                    load(batch);
                    batch.clear();
                }
                batch.add(p);
            }
            load(batch);
        }
        for (int i = 0; i < extents.size(); i++) {
            eachPiece(file, extents.offset(i), extents.length(i), (p, from, to) -> {
                if (!missing.containsKey(p.index)) counters.hits++;
                dst.put(p.data, from, to - from);
            });
            counters.bytesRead += extents.length(i);
        }
        evictOverCapacity();
    }

    /**
     * Adds to {@code loads} the pages of the missed pages' read-ahead blocks that need loading: not loaded, not
     * wholly dirty (a partly dirty one is loaded under its dirty bytes), before the end of the file, and, for a
     * page not cached yet, only if it fits the cache without evicting a dirty page or one this request reads
     * (clean pages go, least recently used first). Pages of the block are this delegate's by the owned stride,
     * so no page of another delegate is ever loaded.
     */
    private void addReadAhead(CachedFile file, SortedMap<Long, Page> missing, long request, TreeMap<Long, Page> loads) throws IOException {
        long window = file.readAhead.windowPages(file.pageSize(), capacityBytes);
        if (window <= 1) return;
        long stride = file.readAhead.stride();
        if (stride <= 0) return;
        long endPage = (file.knownEnd() + file.pageSize() - 1) / file.pageSize();
        Room room = new Room(request);
        List<Long> fresh = new ArrayList<>();
        Set<Long> blocks = new HashSet<>();
        fill:
        for (long m : missing.keySet()) {
            long first = m % stride + (m / stride) / window * window * stride;   // the block's first page
            if (!blocks.add(first)) continue;
            for (long i = 0; i < window; i++) {
                long q = first + i * stride;
                if (q >= endPage) break;
                if (loads.containsKey(q)) continue;
                Page cached = file.pages.get(q);
                if (cached != null) {
                    if (!cached.loaded && cached.dirty.nextClearBit(0) < cached.data.length) loads.put(q, cached);   // no new memory
                    continue;
                }
                if (!room.make(file.pageSize())) break fill;   // the cache is full of pages that must stay
                fresh.add(q);
            }
        }
        for (long f : fresh) loads.put(f, page(file, f));
    }

    /**
     * Room in the cache for read-ahead pages: free bytes first, then clean pages evicted least recently used
     * first, never a dirty page (read-ahead must not make a read write back) nor one of the request's own.
     */
    private final class Room {
        private final long request;
        private Iterator<Page> lru;
        private long promised;

        Room(long request) {
            this.request = request;
        }

        boolean make(long bytes) {
            while (capacityBytes - usedBytes - promised < bytes) {
                if (lru == null) lru = pages.values().iterator();
                Page victim = null;
                while (victim == null && lru.hasNext()) {
                    Page p = lru.next();
                    if (p.loaded && p.dirty.isEmpty() && p.readBy != request) victim = p;
                }
                if (victim == null) return false;
                lru.remove();
                victim.file.pages.remove(victim.index);
                usedBytes -= victim.data.length;
                counters.evictions++;
            }
            promised += bytes;
            return true;
        }
    }

    /** What is done with one page's share [from, to) of an extent. */
    @FunctionalInterface
    private interface PieceAction {
        void on(Page page, int from, int to) throws IOException;
    }

    /** Cuts {@code length} bytes at {@code offset} at page boundaries and hands each piece, with its page, to {@code action}. */
    private void eachPiece(CachedFile file, long offset, long length, PieceAction action) throws IOException {
        long pos = offset, end = offset + length;
        while (pos < end) {
            long index = pos / file.pageSize();
            long pageStart = index * file.pageSize();
            int from = (int) (pos - pageStart);
            int to = (int) Math.min(file.pageSize(), end - pageStart);
            action.on(page(file, index), from, to);
            pos = pageStart + to;
        }
    }

    /** Most bytes one flush request carries: a flush of more dirty bytes goes out in several requests. */
    static final long FLUSH_BATCH_BYTES = 16L << 20;

    /**
     * Writes back every dirty page of the file, in offset order, as few requests as {@link #FLUSH_BATCH_BYTES}
     * allows: one request of many page runs lets the store serve them together (a striped store sends each
     * server its share at once, and one delegate's pages of a server are contiguous there).
     */
    public void flush(CachedFile file) throws IOException {
        List<Page> dirty = new ArrayList<>();
        for (Page p : file.pages.values()) if (!p.dirty.isEmpty()) dirty.add(p);
        dirty.sort((a, b) -> Long.compare(a.index, b.index));
        int from = 0;
        while (from < dirty.size()) {
            long bytes = 0;
            int to = from;
            while (to < dirty.size() && (to == from || bytes + dirty.get(to).dirty.cardinality() <= FLUSH_BATCH_BYTES)) {
                bytes += dirty.get(to).dirty.cardinality();
                to++;
            }
            writeBack(dirty.subList(from, to), bytes);
            from = to;
        }
    }

    /**
     * Writes back the dirty bytes of the cached pages that {@code extents} touch and, with {@code drop}, forgets
     * those pages: what a delegate does before a rank reads (keep) or writes (drop) those bytes straight on
     * storage, and when a rank reports bytes it wrote there (drop), so that no copy older than storage is served.
     */
    public void release(CachedFile file, ExtentList extents, boolean drop) throws IOException {
        List<Page> touched = new ArrayList<>();
        for (Page p : file.pages.values()) {
            long start = p.index * file.pageSize();
            if (overlaps(extents, start, start + file.pageSize())) touched.add(p);
        }
        touched.sort((a, b) -> Long.compare(a.index, b.index));
        for (Page p : touched) {
            if (!p.dirty.isEmpty()) writeBack(p);
            if (drop) remove(p);
        }
    }

    private static boolean overlaps(ExtentList extents, long start, long end) {
        for (int i = 0; i < extents.size(); i++) {
            if (extents.offset(i) < end && extents.offset(i) + extents.length(i) > start) return true;
        }
        return false;
    }

    /** Flushes the file and forgets its pages (close, truncate): a reopen reads storage again. */
    public void drop(CachedFile file) throws IOException {
        flush(file);
        for (Page p : new ArrayList<>(file.pages.values())) remove(p);
    }

    private Page page(CachedFile file, long index) {
        Page p = file.pages.get(index);
        if (p != null) {
            pages.get(p.key);   // LRU touch
            return p;
        }
        p = new Page(file, index);
        file.pages.put(index, p);
        pages.put(p.key, p);
        usedBytes += p.data.length;
        return p;
    }

    /** Loads whole pages (one file's, in offset order) in one storage request; past the end they read as zeros. */
    private void load(List<Page> batch) throws IOException {
        CachedFile file = batch.get(0).file;
        int pageSize = Math.toIntExact(file.pageSize());
        ExtentList.Builder runs = ExtentList.builder();
        for (Page p : batch) runs.add(p.index * pageSize, pageSize);
        byte[] fresh = new byte[batch.size() * pageSize];
        file.storage().readv(runs.build(), ByteBuffer.wrap(fresh));
        counters.storageReads++;
        for (int k = 0; k < batch.size(); k++) fill(batch.get(k), fresh, k * pageSize);
    }

    /** Storage's bytes of a page ({@code fresh} from {@code base}) go under its dirty ones only. */
    private static void fill(Page p, byte[] fresh, int base) {
        int size = p.data.length;
        int i = p.dirty.nextClearBit(0);
        while (i < size) {
            int next = p.dirty.nextSetBit(i);
            int stop = next < 0 ? size : next;
            System.arraycopy(fresh, base + i, p.data, i, stop - i);
            if (next < 0) break;
            i = p.dirty.nextClearBit(next);
        }
        p.loaded = true;
    }

    private void writeBack(Page p) throws IOException {
        writeBack(List.of(p), p.dirty.cardinality());
    }

    /** One storage request with the dirty runs of {@code pages} (one file's, in offset order). */
    private void writeBack(List<Page> pages, long dirtyBytes) throws IOException {
        ExtentList.Builder runs = ExtentList.builder();
        ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(dirtyBytes));
        for (Page p : pages) {
            long start = p.index * p.file.pageSize();
            for (int i = p.dirty.nextSetBit(0); i >= 0; ) {
                int stop = p.dirty.nextClearBit(i);
                runs.add(start + i, stop - i);
                bytes.put(p.data, i, stop - i);
                i = p.dirty.nextSetBit(stop);
            }
        }
        bytes.flip();
        ExtentList extents = runs.build();
        pages.get(0).file.storage().writev(extents, bytes);
        pages.get(0).file.writtenSinceSync = true;
        counters.storageWrites++;
        counters.bytesFlushed += extents.totalBytes();
        for (Page p : pages) p.dirty.clear();
    }

    private void evictOverCapacity() throws IOException {
        Iterator<Map.Entry<PageKey, Page>> it = pages.entrySet().iterator();
        while (usedBytes > capacityBytes && it.hasNext()) {
            Page p = it.next().getValue();
            if (!p.dirty.isEmpty()) writeBack(p);
            it.remove();
            p.file.pages.remove(p.index);
            usedBytes -= p.data.length;
            counters.evictions++;
        }
    }

    private void remove(Page p) {
        pages.remove(p.key);
        p.file.pages.remove(p.index);
        usedBytes -= p.data.length;
    }

    private record PageKey(CachedFile file, long index) {
    }

    private static final class Page {
        final CachedFile file;
        final long index;
        final PageKey key;
        final byte[] data;
        final BitSet dirty;
        boolean loaded;
        /** The last read that touched the page: read-ahead never evicts a page of the read it serves. */
        long readBy;

        Page(CachedFile file, long index) {
            this.file = file;
            this.index = index;
            this.key = new PageKey(file, index);
            this.data = new byte[Math.toIntExact(file.pageSize())];
            this.dirty = new BitSet(data.length);
        }
    }

    /** A file as one delegate caches it: its storage handle, page size and cached pages. */
    public static final class CachedFile {
        private final PageStore storage;
        private final long pageSize;
        private final Map<Long, Page> pages = new java.util.HashMap<>();
        private final ReadAhead readAhead;
        private long writtenEnd;
        private boolean writtenSinceSync;

        /** A file whose misses load their own pages only. */
        public CachedFile(PageStore storage, long pageSize) {
            this(storage, pageSize, ReadAhead.NONE);
        }

        public CachedFile(PageStore storage, long pageSize, ReadAhead readAhead) {
            if (pageSize <= 0 || pageSize > Integer.MAX_VALUE) throw new IllegalArgumentException("delegate page size must be in 1.." + Integer.MAX_VALUE + ", was " + pageSize);
            this.storage = storage;
            this.pageSize = pageSize;
            this.readAhead = readAhead;
        }

        public PageStore storage() {
            return storage;
        }

        public long pageSize() {
            return pageSize;
        }

        void noteWritten(long end) {
            writtenEnd = Math.max(writtenEnd, end);
        }

        /** The end of the file as this delegate knows it: storage's size, or further if it holds bytes written past it. */
        public long knownEnd() throws IOException {
            return Math.max(storage.size(), writtenEnd);
        }

        /** Whether pages were written back to storage since the last {@link #synced()}: a sync must make them durable. */
        public boolean writtenSinceSync() {
            return writtenSinceSync;
        }

        /** The store was synced: what was written back before is durable. */
        public void synced() {
            writtenSinceSync = false;
        }

        /** After a truncation: bytes this delegate wrote before it no longer extend the file. */
        public void forgetWrittenEnd() {
            writtenEnd = 0;
        }

        public int cachedPages() {
            return pages.size();
        }

        /** The indexes of the cached pages, ascending (tests, tools). */
        public List<Long> cachedPageIndexes() {
            List<Long> all = new ArrayList<>(pages.keySet());
            all.sort(null);
            return all;
        }

        public long dirtyBytes() {
            long n = 0;
            for (Page p : pages.values()) n += p.dirty.cardinality();
            return n;
        }
    }

    /** What the cache did, for tests and the benchmark tables. */
    public static final class CacheCounters {
        public long hits;
        /** Pages a read needed and had to load. */
        public long misses;
        /** Pages loaded with them that no request asked for yet (read-ahead within the delegate's domain). */
        public long readAhead;
        public long evictions;
        public long storageReads;
        public long storageWrites;
        public long bytesRead;
        public long bytesWritten;
        public long bytesFlushed;

        @Override
        public String toString() {
            return "hits=" + hits + " misses=" + misses + " readAhead=" + readAhead + " evictions=" + evictions + " storageReads=" + storageReads
                    + " storageWrites=" + storageWrites + " bytesFlushed=" + bytesFlushed;
        }
    }
}
