package io.pdla.delegate.service;

import io.pdla.access.ExtentList;
import io.pdla.delegate.cache.PageCache.CacheCounters;
import io.pdla.delegate.service.DelegateProtocol.Op;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Read-ahead within a delegate's domain, over sim-pfs's default striping (8 HDD servers, 64 KiB stripes: page k
 * on server k mod 8) and the POSIX driver (unstriped). Storage requests are counted by the delegate's cache, one
 * per list read it sends down its chain.
 */
class DelegateReadAheadTest {
    static final int PAGE = 64 * 1024, SERVERS = 8;

    @TempDir
    Path dir;

    private final long seed = ThreadLocalRandom.current().nextLong();
    private final Random rnd = new Random(seed);

    private Map<String, String> hints(String... keyValues) {
        Map<String, String> h = new HashMap<>();
        h.put("simpfs_root", dir.resolve("simpfs").toString());
        for (int i = 0; i < keyValues.length; i += 2) h.put(keyValues[i], keyValues[i + 1]);
        return h;
    }

    /** A sim-pfs file of {@code size} random bytes, written through the driver; its URI. */
    private String striped(String name, byte[] content) throws Exception {
        URI uri = URI.create("simpfs:///" + name);
        try (StorageFile f = StorageDrivers.installed().forUri(uri).open(uri, new OpenOptions(true, true, true, false, hints()))) {
            assertEquals(SERVERS, f.layout().serverCount(), "sim-pfs's default layout");
            assertEquals(PAGE, f.layout().stripeSize());
            f.write(0, ByteBuffer.wrap(content));
        }
        return uri.toString();
    }

    private byte[] onStorage(String uri, int size) throws Exception {
        URI u = URI.create(uri);
        try (StorageFile f = StorageDrivers.installed().forUri(u).open(u, new OpenOptions(true, false, false, false, hints()))) {
            ByteBuffer b = ByteBuffer.allocate(size);
            while (b.hasRemaining() && f.read(b.position(), b) > 0) {
                // until the end
            }
            return b.array();
        }
    }

    private byte[] random(int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    private static ExtentList pieces(int length, long... pages) {
        ExtentList.Builder b = ExtentList.builder();
        for (long p : pages) b.add(p * PAGE + 1000, length);
        return b.build();
    }

    private static byte[] expected(byte[] content, ExtentList extents) {
        byte[] want = new byte[Math.toIntExact(extents.totalBytes())];
        for (int i = 0, at = 0; i < extents.size(); at += (int) extents.length(i), i++) {
            int from = (int) extents.offset(i), n = (int) extents.length(i);
            if (from < content.length) System.arraycopy(content, from, want, at, Math.min(n, content.length - from));
        }
        return want;
    }

    private static byte[] served(byte[] reply) throws Exception {
        DelegateProtocol.check(reply, 0);
        return Arrays.copyOfRange(reply, DelegateProtocol.DATA_OFFSET, reply.length);
    }

    private static List<Long> pagesFrom(long first, long step, long end) {
        List<Long> l = new ArrayList<>();
        for (long p = first; p < end; p += step) l.add(p);
        return l;
    }

    /**
     * One rank's strided request misses every other page of the delegate's share of a server (as at 256 ranks,
     * where the pieces are 1 MiB apart): the gaps between them and the pages after them come in the same
     * request, and the other ranks' reads of them hit.
     */
    @Test
    void aMissLoadsTheGapsAndTheRestOfItsBlockInOneRequestAndLaterReadsOfThemHit() throws Exception {
        byte[] content = random(64 * PAGE);   // 8 pages per server
        String uri = striped("gaps.dat", content);
        DelegateServer server = new DelegateServer(64L << 20, 0);
        DelegateProtocol.check(server.handle(DelegateProtocol.open(uri, false, PAGE, 0, hints())), 0);
        ExtentList first = pieces(4096, 3, 19, 35);   // delegate 3 of 8: server 3's pages 0, 2 and 4
        assertArrayEquals(expected(content, first), served(server.handle(DelegateProtocol.read(uri, first))), "seed " + seed);
        CacheCounters c = server.cache().counters();
        assertEquals(1, c.storageReads, "one storage request: " + c);
        assertEquals(3, c.misses, c.toString());
        assertEquals(5, c.readAhead, "the two gaps and the three pages after the last miss: " + c);
        assertEquals(pagesFrom(3, SERVERS, 64), server.cached(uri).cachedPageIndexes(), "server 3's pages, all of them this delegate's");
        ExtentList later = pieces(8192, 11, 27, 43, 51, 59);
        assertArrayEquals(expected(content, later), served(server.handle(DelegateProtocol.read(uri, later))), "seed " + seed);
        assertEquals(1, c.storageReads, "the gaps were read ahead: " + c);
        assertEquals(5, c.hits, c.toString());
        DelegateProtocol.check(server.handle(DelegateProtocol.simple(Op.CLOSE, uri, 0)), 0);
    }

    @Test
    void dirtyBytesInTheReadAheadBlockAreKeptAndAWhollyDirtyPageIsNotRead() throws Exception {
        byte[] content = random(64 * PAGE);
        String uri = striped("dirty.dat", content);
        DelegateServer server = new DelegateServer(64L << 20, 0);
        DelegateProtocol.check(server.handle(DelegateProtocol.open(uri, true, PAGE, 0, hints())), 0);
        byte[] expected = content.clone();
        byte[] some = random(100), whole = random(PAGE);
        DelegateProtocol.check(server.handle(DelegateProtocol.write(uri, ExtentList.of(11L * PAGE + 500, 100), some)), 0);
        DelegateProtocol.check(server.handle(DelegateProtocol.write(uri, ExtentList.of(43L * PAGE, PAGE), whole)), 0);
        System.arraycopy(some, 0, expected, 11 * PAGE + 500, 100);
        System.arraycopy(whole, 0, expected, 43 * PAGE, PAGE);
        ExtentList first = pieces(4096, 3);
        assertArrayEquals(expected(expected, first), served(server.handle(DelegateProtocol.read(uri, first))), "seed " + seed);
        CacheCounters c = server.cache().counters();
        assertEquals(1, c.storageReads, c.toString());
        assertEquals(6, c.readAhead, "pages 11 (under its dirty bytes), 19, 27, 35, 51, 59; not 43, wholly dirty: " + c);
        assertEquals(0, c.storageWrites, "reading ahead wrote nothing back: " + c);
        assertEquals(100 + PAGE, server.cached(uri).dirtyBytes(), "the dirty bytes are still dirty, and only they");
        ExtentList rest = ExtentList.builder().add(11L * PAGE, PAGE).add(43L * PAGE, PAGE).add(59L * PAGE, PAGE).build();
        assertArrayEquals(expected(expected, rest), served(server.handle(DelegateProtocol.read(uri, rest))), "seed " + seed);
        assertEquals(1, c.storageReads, c.toString());
        DelegateProtocol.check(server.handle(DelegateProtocol.simple(Op.CLOSE, uri, 0)), 0);
        assertEquals(1, c.storageWrites, "one flush at close: " + c);
        assertEquals(100 + PAGE, c.bytesFlushed, "the dirty bytes only, not the pages read ahead: " + c);
        assertArrayEquals(expected, onStorage(uri, expected.length), "seed " + seed);
    }

    /** With 4 delegates over 8 servers each owns two servers (pages k = own mod 4): both its blocks, nothing else. */
    @Test
    void aDelegateOfSeveralServersReadsAheadOnEachAndNeverLoadsAnotherDelegatesPages() throws Exception {
        byte[] content = random(64 * PAGE);
        String uri = striped("two-servers.dat", content);
        DelegateServer server = new DelegateServer(64L << 20, 0);
        DelegateProtocol.check(server.handle(DelegateProtocol.open(uri, false, PAGE, 0, hints())), 0);
        ExtentList first = pieces(4096, 1, 5);   // delegate 1 of 4: servers 1 and 5
        assertArrayEquals(expected(content, first), served(server.handle(DelegateProtocol.read(uri, first))), "seed " + seed);
        assertEquals(1, server.cache().counters().storageReads, server.cache().counters().toString());
        List<Long> cached = server.cached(uri).cachedPageIndexes();
        assertEquals(pagesFrom(1, 4, 64), cached, "servers 1 and 5, every page of delegate 1 and none of 0, 2, 3");
    }

    /**
     * Unstriped file: pages round-robin over all the job's delegates, so a delegate that knows their number reads
     * ahead every D-th page, and one that does not (launched without it) loads its missed pages only.
     */
    @Test
    void onAnUnstripedFileTheStrideIsTheJobsDelegateCountAndUnknownMeansNoReadAhead() throws Exception {
        int page = 4096, pages = 30;
        byte[] content = random(page * pages);
        Path file = Files.write(dir.resolve("unstriped"), content);
        String uri = file.toUri().toString();
        Map<String, String> window = Map.of(DelegateServer.HINT_READ_AHEAD, "64k");   // 16 of the delegate's pages
        DelegateServer third = new DelegateServer(64L << 20, 0, 3);
        DelegateProtocol.check(third.handle(DelegateProtocol.open(uri, false, page, 0, window)), 0);
        ExtentList two = ExtentList.of(2L * page + 10, 100);
        assertArrayEquals(expected(content, two), served(third.handle(DelegateProtocol.read(uri, two))));
        assertEquals(pagesFrom(2, 3, pages), third.cached(uri).cachedPageIndexes(), "delegate 2 of 3: pages 2, 5, ..., 29 up to the end");
        assertEquals(1, third.cache().counters().storageReads);
        DelegateServer unknowing = new DelegateServer(64L << 20, 0);
        DelegateProtocol.check(unknowing.handle(DelegateProtocol.open(uri, false, page, 0, window)), 0);
        assertArrayEquals(expected(content, two), served(unknowing.handle(DelegateProtocol.read(uri, two))));
        assertEquals(List.of(2L), unknowing.cached(uri).cachedPageIndexes(), "no page but the missed one is known to be its own");
        assertEquals(0, unknowing.cache().counters().readAhead);
    }

    /**
     * Read-ahead takes free room, then clean pages (least recently used first), never a dirty one: a read does not
     * write back because of pages nobody asked for; with only dirty pages to give, it reads nothing ahead.
     */
    @Test
    void readAheadKeepsTheCacheBoundAndNeverEvictsADirtyPage() throws Exception {
        byte[] content = random(128 * PAGE);   // 16 pages per server
        String uri = striped("bound.dat", content);
        Map<String, String> h = hints(DelegateServer.HINT_READ_AHEAD, Integer.toString(4 * PAGE));   // blocks of 4 pages
        DelegateServer server = new DelegateServer(8L * PAGE, 0);
        DelegateProtocol.check(server.handle(DelegateProtocol.open(uri, true, PAGE, 0, h)), 0);
        byte[] expected = content.clone();
        byte[] dirty = random(10);
        DelegateProtocol.check(server.handle(DelegateProtocol.write(uri, ExtentList.of(5, 10), dirty)), 0);   // page 0
        System.arraycopy(dirty, 0, expected, 5, 10);
        ExtentList second = pieces(100, 64);   // server 0, block 2 (pages 64, 72, 80, 88)
        assertArrayEquals(expected(expected, second), served(server.handle(DelegateProtocol.read(uri, second))));
        ExtentList third = pieces(100, 96);   // block 3: one page missed, three ahead, two pages of room left
        assertArrayEquals(expected(expected, third), served(server.handle(DelegateProtocol.read(uri, third))));
        CacheCounters c = server.cache().counters();
        assertEquals(6, c.readAhead, c.toString());
        assertTrue(server.cache().usedBytes() <= 8L * PAGE, "bounded: " + server.cache().usedBytes());
        assertEquals(1, c.evictions, "one clean page made room: " + c);
        assertEquals(0, c.storageWrites, "nothing written back by a read: " + c);
        List<Long> cached = server.cached(uri).cachedPageIndexes();
        assertTrue(cached.contains(0L) && !cached.contains(72L) && cached.contains(64L), "the dirty page stays, the least recently used clean one (72: 64 was read after it) went: " + cached);
        assertEquals(10, server.cached(uri).dirtyBytes());

        DelegateServer full = new DelegateServer(4L * PAGE, 0);
        DelegateProtocol.check(full.handle(DelegateProtocol.open(uri, true, PAGE, 0, h)), 0);
        for (long p : new long[]{0, 8, 16}) DelegateProtocol.check(full.handle(DelegateProtocol.write(uri, ExtentList.of(p * PAGE, 10), random(10))), 0);
        ExtentList miss = pieces(100, 64);
        assertArrayEquals(expected(content, miss), served(full.handle(DelegateProtocol.read(uri, miss))));
        CacheCounters f = full.cache().counters();
        assertEquals(0, f.readAhead, "the cache holds dirty pages and the missed one: no room to read ahead: " + f);
        assertEquals(1, f.storageReads, f.toString());
        assertEquals(0, f.storageWrites, f.toString());
        assertEquals(4L * PAGE, full.cache().usedBytes());
    }

    @Test
    void readAheadStopsAtTheEndOfTheFile() throws Exception {
        byte[] content = random(24 * PAGE + 1000);   // server 0's pages 0, 8, 16 and a short 24
        String uri = striped("end.dat", content);
        DelegateServer server = new DelegateServer(64L << 20, 0);
        DelegateProtocol.check(server.handle(DelegateProtocol.open(uri, false, PAGE, 0, hints())), 0);
        ExtentList first = pieces(10, 0);
        assertArrayEquals(expected(content, first), served(server.handle(DelegateProtocol.read(uri, first))));
        assertEquals(List.of(0L, 8L, 16L, 24L), server.cached(uri).cachedPageIndexes(), "nothing past the end: " + server.cache().counters());
        ExtentList tail = ExtentList.of(24L * PAGE, PAGE);
        byte[] reply = server.handle(DelegateProtocol.read(uri, tail));
        assertEquals(content.length, DelegateProtocol.knownEnd(reply, 0));
        assertArrayEquals(expected(content, tail), served(reply), "the short page's bytes, then zeros");
        assertEquals(1, server.cache().counters().storageReads, server.cache().counters().toString());
    }

    @Test
    void aReadAheadHintOfZeroTurnsItOffAndOneThatIsNotASizeIsRefusedNamingIt() throws Exception {
        byte[] content = random(64 * PAGE);
        String uri = striped("hint.dat", content);
        DelegateServer off = new DelegateServer(64L << 20, 0);
        DelegateProtocol.check(off.handle(DelegateProtocol.open(uri, false, PAGE, 0, hints(DelegateServer.HINT_READ_AHEAD, "0"))), 0);
        ExtentList first = pieces(4096, 3, 19);
        assertArrayEquals(expected(content, first), served(off.handle(DelegateProtocol.read(uri, first))));
        assertEquals(List.of(3L, 19L), off.cached(uri).cachedPageIndexes());
        DelegateServer bad = new DelegateServer(64L << 20, 0);
        byte[] reply = bad.handle(DelegateProtocol.open(uri, false, PAGE, 0, hints(DelegateServer.HINT_READ_AHEAD, "lots")));
        DelegateFailedException e = org.junit.jupiter.api.Assertions.assertThrows(DelegateFailedException.class, () -> DelegateProtocol.check(reply, 0));
        assertTrue(e.getMessage().contains(DelegateServer.HINT_READ_AHEAD) && e.getMessage().contains("lots") && e.getMessage().contains(uri), e.getMessage());
        assertFalse(bad.openFiles() > 0, "the open failed");
    }

    /** Telling the stride needs storage: while it cannot be opened the read fails naming the file, and later reads ahead. */
    @Test
    void aStrideThatCannotBeToldYetCostsNoReadAheadLaterAndTheReadReportsStoragesError() throws Exception {
        int page = 4096;
        Path missing = dir.resolve("later");
        String uri = missing.toUri().toString();
        DelegateServer server = new DelegateServer(64L << 20, 0, 2);
        DelegateProtocol.check(server.handle(DelegateProtocol.open(uri, false, page, 0, Map.of())), 0);
        byte[] failed = server.handle(DelegateProtocol.read(uri, ExtentList.of(0, 10)));
        DelegateFailedException e = org.junit.jupiter.api.Assertions.assertThrows(DelegateFailedException.class, () -> DelegateProtocol.check(failed, 0));
        assertTrue(e.getMessage().contains("later"), e.getMessage());
        byte[] content = random(8 * page);
        Files.write(missing, content);
        ExtentList first = ExtentList.of(10, 10);
        assertArrayEquals(expected(content, first), served(server.handle(DelegateProtocol.read(uri, first))));
        assertEquals(List.of(0L, 2L, 4L, 6L), server.cached(uri).cachedPageIndexes(), "delegate 0 of 2 reads ahead once storage is there");
    }

    /**
     * Random reads and writes of one delegate's pages (as the ranks' split sends them) under random windows, cache
     * bounds and delegate counts: every read serves the model's bytes, only the delegate's pages are ever cached,
     * the bound holds after every request, and close leaves the model on storage.
     */
    @Test
    void randomRequestsServeTheRightBytesWithinTheDomainAndTheBound() throws Exception {
        int page = 4096;
        long readAhead = 0, evictions = 0;
        for (int round = 0; round < 25; round++) {
            int delegates = 1 + rnd.nextInt(4), me = rnd.nextInt(delegates), pages = 8 + rnd.nextInt(60);
            long capacity = (long) page * (2 + rnd.nextInt(12));
            String window = Integer.toString(page * rnd.nextInt(9));
            String what = "seed " + seed + ", round " + round + ": delegate " + me + " of " + delegates + ", " + pages
                    + " pages, cache " + capacity / page + " pages, window " + window;
            byte[] model = random(page * pages - rnd.nextInt(page));
            Path file = Files.write(dir.resolve("random-" + round), model);
            String uri = file.toUri().toString();
            DelegateServer server = new DelegateServer(capacity, 0, delegates);
            DelegateProtocol.check(server.handle(DelegateProtocol.open(uri, true, page, 0, Map.of(DelegateServer.HINT_READ_AHEAD, window))), 0);
            for (int op = 0; op < 40; op++) {
                ExtentList.Builder b = ExtentList.builder();
                for (int n = 1 + rnd.nextInt(4); n > 0; n--) {
                    long p = me + (long) delegates * rnd.nextInt((pages + delegates - 1) / delegates);
                    int from = rnd.nextInt(page), length = 1 + rnd.nextInt(page - from);
                    b.add(p * page + from, length);
                }
                ExtentList extents = b.build();
                if (rnd.nextInt(3) == 0) {
                    byte[] data = random(Math.toIntExact(extents.totalBytes()));
                    DelegateProtocol.check(server.handle(DelegateProtocol.write(uri, extents, data)), 0);
                    for (int i = 0, at = 0; i < extents.size(); at += (int) extents.length(i), i++) {
                        int end = (int) (extents.offset(i) + extents.length(i));
                        if (end > model.length) model = Arrays.copyOf(model, end);
                        System.arraycopy(data, at, model, (int) extents.offset(i), (int) extents.length(i));
                    }
                } else {
                    assertArrayEquals(expected(model, extents), served(server.handle(DelegateProtocol.read(uri, extents))), what + ", op " + op);
                }
                assertTrue(server.cache().usedBytes() <= capacity, what + ", op " + op + ": " + server.cache().usedBytes());
                for (long p : server.cached(uri).cachedPageIndexes()) assertEquals(me, p % delegates, what + ": page " + p + " cached");
            }
            readAhead += server.cache().counters().readAhead;
            evictions += server.cache().counters().evictions;
            DelegateProtocol.check(server.handle(DelegateProtocol.simple(Op.CLOSE, uri, 0)), 0);
            assertArrayEquals(model, Files.readAllBytes(file), what);
        }
        assertTrue(readAhead > 0 && evictions > 0, "seed " + seed + ": the rounds read ahead (" + readAhead + " pages) and evicted (" + evictions + ")");
    }
}
