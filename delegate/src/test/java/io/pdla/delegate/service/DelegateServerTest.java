package io.pdla.delegate.service;

import io.pdla.access.ExtentList;
import io.pdla.delegate.service.DelegateProtocol.Op;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The caching rules of one delegate, over the real POSIX driver. */
class DelegateServerTest {
    @TempDir
    Path dir;

    private final long seed = ThreadLocalRandom.current().nextLong();
    private final Random rnd = new Random(seed);

    private static void ok(byte[] reply) throws Exception {
        DelegateProtocol.check(reply, 0);
    }

    private byte[] random(int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    /**
     * A strided view's read touches pages far apart; the pages it misses are loaded in one storage request, in
     * offset order, with a page's dirty bytes kept over storage's and zeros past the end of the file.
     */
    @Test
    void aStridedReadLoadsTheMissedPagesInOneRequestKeepingDirtyBytes() throws Exception {
        int page = 4096, pages = 12;
        Path file = Files.write(dir.resolve("strided"), random(page * (pages - 1) + 100));   // the last page is short
        byte[] expected = Arrays.copyOf(Files.readAllBytes(file), page * pages);
        String uri = file.toUri().toString();
        DelegateServer server = new DelegateServer(64L << 20, 0);
        ok(server.handle(DelegateProtocol.open(uri, true, page, 0, Map.of())));
        byte[] dirty = random(50);
        ok(server.handle(DelegateProtocol.write(uri, ExtentList.of(3 * page + 10, 50), dirty)));
        System.arraycopy(dirty, 0, expected, 3 * page + 10, 50);
        ExtentList.Builder strided = ExtentList.builder();
        for (int k = 1; k < pages; k += 2) strided.add((long) k * page + 7, 300);   // pages 1, 3 (dirty), ..., 11 (short)
        ExtentList extents = strided.build();
        byte[] reply = server.handle(DelegateProtocol.read(uri, extents));
        ok(reply);
        byte[] want = new byte[Math.toIntExact(extents.totalBytes())];
        for (int i = 0, at = 0; i < extents.size(); at += (int) extents.length(i), i++) {
            System.arraycopy(expected, (int) extents.offset(i), want, at, (int) extents.length(i));
        }
        assertArrayEquals(want, Arrays.copyOfRange(reply, DelegateProtocol.DATA_OFFSET, reply.length), "seed " + seed);
        assertEquals(1, server.cache().counters().storageReads, "one request for six missed pages: " + server.cache().counters());
        assertEquals(6, server.cache().counters().misses, server.cache().counters().toString());
        byte[] again = server.handle(DelegateProtocol.read(uri, extents));
        assertArrayEquals(want, Arrays.copyOfRange(again, DelegateProtocol.DATA_OFFSET, again.length), "served from the cache");
        assertEquals(1, server.cache().counters().storageReads, "the second read hits: " + server.cache().counters());
        ok(server.handle(DelegateProtocol.simple(Op.CLOSE, uri, 0)));
    }

    @Test
    void syncAndCloseWriteBackEveryDirtyByteAndNothingElse() throws Exception {
        Path file = Files.write(dir.resolve("f"), random(10_000));
        byte[] expected = Files.readAllBytes(file);
        String uri = file.toUri().toString();
        DelegateServer server = new DelegateServer(64L << 20, 0);
        ok(server.handle(DelegateProtocol.open(uri, true, 4096, 0, Map.of())));
        // scattered small writes, some past the end, none reading the page first
        for (int i = 0; i < 50; i++) {
            int off = rnd.nextInt(14_000), len = 1 + rnd.nextInt(300);
            byte[] b = random(len);
            ok(server.handle(DelegateProtocol.write(uri, ExtentList.of(off, len), b)));
            if (off + len > expected.length) expected = Arrays.copyOf(expected, off + len);
            System.arraycopy(b, 0, expected, off, len);
        }
        assertTrue(server.cache().counters().storageReads == 0, "writes must not read pages: " + server.cache().counters());
        ok(server.handle(DelegateProtocol.simple(Op.SYNC, uri, 0)));
        assertArrayEquals(expected, Files.readAllBytes(file), "after sync, seed " + seed);
        byte[] tail = random(100);
        ok(server.handle(DelegateProtocol.write(uri, ExtentList.of(expected.length - 50, 100), tail)));
        expected = Arrays.copyOf(expected, expected.length + 50);
        System.arraycopy(tail, 0, expected, expected.length - 100, 100);
        ok(server.handle(DelegateProtocol.simple(Op.CLOSE, uri, 0)));
        assertArrayEquals(expected, Files.readAllBytes(file), "after close, seed " + seed);
        assertEquals(0, server.openFiles());
        assertEquals(0, server.cache().usedBytes(), "a closed file's pages are forgotten");
    }

    @Test
    void evictionUnderMemoryPressureWritesBack() throws Exception {
        Path file = dir.resolve("g");
        Files.write(file, new byte[0]);
        String uri = file.toUri().toString();
        DelegateServer server = new DelegateServer(2 * 4096, 0);
        ok(server.handle(DelegateProtocol.open(uri, true, 4096, 0, Map.of())));
        byte[] data = random(10 * 4096);
        for (int p = 0; p < 10; p++) {
            ok(server.handle(DelegateProtocol.write(uri, ExtentList.of(p * 4096L, 4096), Arrays.copyOfRange(data, p * 4096, (p + 1) * 4096))));
        }
        assertTrue(server.cache().usedBytes() <= 2 * 4096, "bounded: " + server.cache().usedBytes());
        assertEquals(8, server.cache().counters().evictions, server.cache().counters().toString());
        byte[] onDisk = Files.readAllBytes(file);
        assertArrayEquals(Arrays.copyOf(data, 8 * 4096), Arrays.copyOf(onDisk, 8 * 4096), "evicted pages are on storage before any sync");
        assertEquals(8, server.cache().counters().storageWrites, "one page-sized write per evicted page");
        // evicted pages read back from storage, cached ones from memory
        byte[] reply = server.handle(DelegateProtocol.read(uri, ExtentList.of(0, data.length)));
        assertEquals(data.length + 0L, DelegateProtocol.knownEnd(reply, 0) >= data.length ? data.length : -1);
        assertArrayEquals(data, Arrays.copyOfRange(reply, DelegateProtocol.DATA_OFFSET, reply.length));
    }

    @Test
    void aReadAfterAnotherRanksWriteSeesItsBytesMergedOverStorage() throws Exception {
        byte[] old = random(8192);
        Path file = Files.write(dir.resolve("h"), old);
        String uri = file.toUri().toString();
        DelegateServer server = new DelegateServer(64L << 20, 0);
        Map<Integer, byte[]> last = new java.util.HashMap<>();
        DelegateServer.Replies replies = (to, reply) -> last.put(to, reply);
        // rank A (0) and rank B (1), each alone in its open (as with COMM_SELF)
        server.handle(0, DelegateProtocol.open(uri, true, 4096, 0, Map.of(), 1, 1), replies);
        server.handle(1, DelegateProtocol.open(uri, true, 4096, 0, Map.of(), 2, 1), replies);
        byte[] b = random(100);
        server.handle(0, DelegateProtocol.write(uri, ExtentList.of(5000, 100), b), replies);   // A writes (partial page)
        server.handle(0, DelegateProtocol.collective(Op.SYNC, uri, 1), replies);
        ok(last.get(0));
        server.handle(1, DelegateProtocol.read(uri, ExtentList.of(4096, 4096)), replies);   // B reads the page
        byte[] reply = last.get(1);
        byte[] expected = Arrays.copyOfRange(old, 4096, 8192);
        System.arraycopy(b, 0, expected, 5000 - 4096, 100);
        assertArrayEquals(expected, Arrays.copyOfRange(reply, DelegateProtocol.DATA_OFFSET, reply.length), "seed " + seed);
        server.handle(0, DelegateProtocol.collective(Op.CLOSE, uri, 1), replies);
        ok(last.get(0));
        assertEquals(1, server.openFiles(), "B still has it open");
    }

    @Test
    void aDelegateOnAnUnknownFileAnswersWithAnErrorNamingIt() {
        byte[] reply = new DelegateServer(4096, 0).handle(DelegateProtocol.read("file:/nowhere", ExtentList.of(0, 1)));
        try {
            DelegateProtocol.check(reply, 2);
            throw new AssertionError("no error");
        } catch (DelegateFailedException e) {
            assertTrue(e.getMessage().contains("delegate 2") && e.getMessage().contains("file:/nowhere") && e.getMessage().contains("not open"), e.getMessage());
        }
    }

    @Test
    void aGroupsSyncAndCloseFlushEachPageOnceWhenTheLastMemberAsks() throws Exception {
        int ranks = 4, pages = 3, piece = 1024;   // each rank writes one 1 KiB piece into every 4 KiB page
        Path file = Files.write(dir.resolve("g"), new byte[0]);
        String uri = file.toUri().toString();
        DelegateServer server = new DelegateServer(64L << 20, 0);
        java.util.List<Integer> answered = new java.util.ArrayList<>();
        DelegateServer.Replies replies = okRepliesTo(answered);
        long group = rnd.nextLong();
        for (int r = 0; r < ranks; r++) server.handle(r, DelegateProtocol.open(uri, true, 4096, 0, Map.of(), group, ranks), replies);
        byte[] expected = new byte[pages * 4096];
        for (int r = 0; r < ranks; r++) {
            for (int p = 0; p < pages; p++) {
                byte[] b = random(piece);
                System.arraycopy(b, 0, expected, p * 4096 + r * piece, piece);
                server.handle(r, DelegateProtocol.write(uri, ExtentList.of(p * 4096L + r * piece, piece), b), replies);
            }
        }
        answered.clear();
        for (int r = 0; r < ranks - 1; r++) {
            server.handle(r, DelegateProtocol.collective(Op.SYNC, uri, group), replies);
            assertTrue(answered.isEmpty(), "rank " + r + "'s sync was answered before the group's last member asked");
        }
        assertEquals(0, server.cache().counters().storageWrites, "nothing flushed before the whole group asked");
        server.handle(ranks - 1, DelegateProtocol.collective(Op.SYNC, uri, group), replies);
        assertEquals(java.util.List.of(0, 1, 2, 3), answered.stream().sorted().toList(), "every member answered");
        assertEquals(1, server.cache().counters().storageWrites, "one flush request for the group's sync");
        assertEquals((long) pages * 4096, server.cache().counters().bytesFlushed, "every page written back once, whole");
        assertArrayEquals(expected, Files.readAllBytes(file), "seed " + seed);
        answered.clear();
        for (int r = 0; r < ranks; r++) server.handle(r, DelegateProtocol.collective(Op.CLOSE, uri, group), replies);
        assertEquals(ranks, answered.size());
        assertEquals(0, server.openFiles(), "the group's close was the file's last");
    }

    @Test
    void membersOfDifferentOpenGroupsSyncIndependently() throws Exception {
        Path file = Files.write(dir.resolve("i"), new byte[8192]);
        String uri = file.toUri().toString();
        DelegateServer server = new DelegateServer(64L << 20, 0);
        java.util.List<Integer> answered = new java.util.ArrayList<>();
        DelegateServer.Replies replies = (to, reply) -> answered.add(to);
        server.handle(0, DelegateProtocol.open(uri, true, 4096, 0, Map.of(), 1, 2), replies);
        server.handle(1, DelegateProtocol.open(uri, true, 4096, 0, Map.of(), 1, 2), replies);
        server.handle(2, DelegateProtocol.open(uri, true, 4096, 0, Map.of(), 2, 1), replies);   // alone (COMM_SELF)
        server.handle(0, DelegateProtocol.write(uri, ExtentList.of(10, 10), random(10)), replies);   // something to flush
        answered.clear();
        server.handle(0, DelegateProtocol.collective(Op.SYNC, uri, 1), replies);
        server.handle(2, DelegateProtocol.collective(Op.SYNC, uri, 2), replies);
        assertEquals(java.util.List.of(2), answered, "the lone rank's sync does not wait for the other group");
        server.handle(1, DelegateProtocol.collective(Op.SYNC, uri, 1), replies);
        // (the lone rank's sync flushed the file, so rank 1 finds nothing to wait for and is answered before rank 0)
        assertEquals(java.util.List.of(0, 1, 2), answered.stream().sorted().toList());
    }

    @Test
    void releaseAndInvalidationNeverLeaveACopyOlderThanStorage() throws Exception {
        byte[] old = random(8192);
        Path file = Files.write(dir.resolve("r"), old);
        String uri = file.toUri().toString();
        DelegateServer server = new DelegateServer(64L << 20, 0);
        ok(server.handle(DelegateProtocol.open(uri, true, 4096, 0, Map.of())));
        byte[] small = random(10);
        ok(server.handle(DelegateProtocol.write(uri, ExtentList.of(100, 10), small)));   // dirty, cached
        // before a direct read of page 0 the rank's dirty bytes reach storage; the page stays cached
        ok(server.handle(DelegateProtocol.release(uri, ExtentList.of(0, 4096), DelegateProtocol.RELEASE_KEEP)));
        byte[] onDisk = Files.readAllBytes(file);
        assertArrayEquals(small, Arrays.copyOfRange(onDisk, 100, 110), "seed " + seed);
        // page 1 is loaded into the cache, then the rank writes it directly on storage and reports it
        byte[] cached = server.handle(DelegateProtocol.read(uri, ExtentList.of(4096, 4096)));
        assertArrayEquals(Arrays.copyOfRange(old, 4096, 8192), Arrays.copyOfRange(cached, DelegateProtocol.DATA_OFFSET, cached.length));
        byte[] direct = random(4096);
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(direct), 4096);
        }
        byte[] read = DelegateProtocol.encode(DelegateProtocol.decode(DelegateProtocol.read(uri, ExtentList.of(4096, 4096)))
                .invalidating(ExtentList.of(4096, 4096)));
        byte[] fresh = server.handle(read);
        assertArrayEquals(direct, Arrays.copyOfRange(fresh, DelegateProtocol.DATA_OFFSET, fresh.length),
                "the cached copy of page 1 was forgotten, storage's bytes served");
        ok(server.handle(DelegateProtocol.simple(Op.CLOSE, uri, 0)));
        assertArrayEquals(direct, Arrays.copyOfRange(Files.readAllBytes(file), 4096, 8192), "close wrote no stale page back");
    }

    @Test
    void storageIsOpenedByTheFirstRequestThatNeedsItNotByTheOpen() throws Exception {
        Path missing = dir.resolve("not-yet");
        String uri = missing.toUri().toString();
        DelegateServer server = new DelegateServer(1L << 20, 0);
        // a file whose calls all bypass the delegate costs it no open: the open, a sync and the close succeed untouched
        ok(server.handle(DelegateProtocol.open(uri, false, 4096, 0, Map.of())));
        ok(server.handle(DelegateProtocol.simple(Op.SYNC, uri, 0)));
        ok(server.handle(DelegateProtocol.simple(Op.CLOSE, uri, 0)));
        assertEquals(0, server.openFiles());
        // the first request that needs storage opens it, and reports a failure to open naming the file
        ok(server.handle(DelegateProtocol.open(uri, false, 4096, 0, Map.of())));
        byte[] reply = server.handle(DelegateProtocol.read(uri, ExtentList.of(0, 10)));
        DelegateFailedException e = org.junit.jupiter.api.Assertions.assertThrows(DelegateFailedException.class, () -> DelegateProtocol.check(reply, 0));
        assertTrue(e.getMessage().contains("not-yet"), e.getMessage());
        Files.write(missing, random(100));
        byte[] now = server.handle(DelegateProtocol.read(uri, ExtentList.of(0, 10)));
        ok(now);
        assertArrayEquals(Arrays.copyOf(Files.readAllBytes(missing), 10), Arrays.copyOfRange(now, DelegateProtocol.DATA_OFFSET, now.length));
    }

    @Test
    void aSyncWithNothingToMakeDurableIsAnsweredAtOnceAndACloseWaitsForTheWholeGroup() throws Exception {
        Path file = Files.write(dir.resolve("idle"), random(8192));
        String uri = file.toUri().toString();
        java.util.Set<String> openHere = java.util.concurrent.ConcurrentHashMap.newKeySet();
        DelegateServer server = new DelegateServer(64L << 20, 0, 0, openHere);
        java.util.List<Integer> answered = new java.util.ArrayList<>();
        DelegateServer.Replies replies = (to, reply) -> answered.add(to);
        assertTrue(openHere.isEmpty());
        for (int r = 0; r < 3; r++) server.handle(r, DelegateProtocol.open(uri, true, 4096, 0, Map.of(), 7, 3), replies);
        assertEquals(java.util.Set.of(uri), openHere, "the delegate publishes the files it has open");
        answered.clear();
        // nothing dirty, nothing written back: no barrier at the delegate for a sync
        server.handle(0, DelegateProtocol.collective(Op.SYNC, uri, 7), replies);
        assertEquals(java.util.List.of(0), answered);
        // a close is held even with nothing dirty: a rank must not leave close before every member's CLOSE came
        server.handle(0, DelegateProtocol.collective(Op.CLOSE, uri, 7), replies);
        assertEquals(java.util.List.of(0), answered, "rank 0's close waits for the group");
        assertEquals(1, server.openFiles(), "two members still have the file open");
        byte[] b = random(100);
        server.handle(1, DelegateProtocol.write(uri, ExtentList.of(4000, 100), b), replies);
        answered.clear();
        server.handle(1, DelegateProtocol.collective(Op.CLOSE, uri, 7), replies);
        assertTrue(answered.isEmpty(), "rank 1's close waits: its bytes are not on storage yet");
        server.handle(2, DelegateProtocol.collective(Op.CLOSE, uri, 7), replies);
        assertEquals(java.util.List.of(0, 1, 2), answered.stream().sorted().toList(), "the last member's close answers the group");
        assertArrayEquals(b, Arrays.copyOfRange(Files.readAllBytes(file), 4000, 4100));
        assertEquals(0, server.openFiles(), "the group's last close ends the file at the delegate");
        assertTrue(openHere.isEmpty(), "a file whose pages are gone is no longer published");
        // an eviction's write-back is not durable until a sync: a later sync waits for the group and syncs
        DelegateServer small = new DelegateServer(4096, 0);
        for (int r = 0; r < 2; r++) small.handle(r, DelegateProtocol.open(uri, true, 4096, 0, Map.of(), 8, 2), replies);
        small.handle(0, DelegateProtocol.write(uri, ExtentList.of(0, 10), random(10)), replies);
        small.handle(0, DelegateProtocol.write(uri, ExtentList.of(4096, 10), random(10)), replies);   // evicts page 0
        small.handle(0, DelegateProtocol.simple(Op.RELEASE, uri, DelegateProtocol.RELEASE_KEEP), replies);
        answered.clear();
        small.handle(0, DelegateProtocol.collective(Op.SYNC, uri, 8), replies);
        assertTrue(answered.isEmpty(), "written back but not synced: the sync is the group's");
        small.handle(1, DelegateProtocol.collective(Op.SYNC, uri, 8), replies);
        assertEquals(java.util.List.of(0, 1), answered.stream().sorted().toList());
    }

    /** Replies that must all be OK, their destinations recorded in {@code answered} in the order they were sent. */
    private static DelegateServer.Replies okRepliesTo(java.util.List<Integer> answered) {
        return (to, reply) -> {
            try {
                ok(reply);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            answered.add(to);
        };
    }

    private static byte[] joining(byte[] request, DelegateProtocol.Join open) throws Exception {
        return DelegateProtocol.encode(DelegateProtocol.decode(request).joining(open, 0));
    }

    @Test
    void aWritableOpensMembersJoinWithTheirFirstRequestAndEachSyncWaitsForTheWholeGroup() throws Exception {
        Path file = Files.write(dir.resolve("lazy"), new byte[8192]);
        String uri = file.toUri().toString();
        DelegateServer server = new DelegateServer(64L << 20, 0);
        java.util.List<Integer> answered = new java.util.ArrayList<>();
        DelegateServer.Replies replies = okRepliesTo(answered);
        long group = 5;
        DelegateProtocol.Join open = new DelegateProtocol.Join(true, 4096, 0, Map.of(), group, 3);
        // ranks 0 and 1 join by writing into one page; rank 2 sends nothing before its sync
        byte[] a = random(10), b = random(10);
        server.handle(0, joining(DelegateProtocol.write(uri, ExtentList.of(0, 10), random(10)), open), replies);
        server.handle(0, joining(DelegateProtocol.write(uri, ExtentList.of(0, 10), a), open), replies);   // a second join changes nothing
        server.handle(1, joining(DelegateProtocol.write(uri, ExtentList.of(100, 10), b), open), replies);
        assertEquals(1, server.openFiles());
        for (long n = 0; n < 2; n++) {
            answered.clear();
            server.handle(0, DelegateProtocol.collective(Op.SYNC, uri, group, n), replies);
            server.handle(1, DelegateProtocol.collective(Op.SYNC, uri, group, n), replies);
            assertTrue(answered.isEmpty(), "sync " + (n + 1) + " waits for rank 2, which may still write");
            byte[] sync = DelegateProtocol.encode(DelegateProtocol.decode(DelegateProtocol.collective(Op.SYNC, uri, group, n)).joining(open, n));
            server.handle(2, sync, replies);   // (a join the second time changes nothing)
            assertEquals(java.util.List.of(0, 1, 2), answered.stream().sorted().toList());
            if (n == 0) server.handle(1, DelegateProtocol.write(uri, ExtentList.of(200, 10), b), replies);
        }
        byte[] onDisk = Files.readAllBytes(file);
        assertArrayEquals(a, Arrays.copyOfRange(onDisk, 0, 10));
        assertArrayEquals(b, Arrays.copyOfRange(onDisk, 200, 210));
        assertEquals(2, server.cache().counters().storageWrites, "one flush request per sync");
        answered.clear();
        for (int r = 0; r < 2; r++) server.handle(r, DelegateProtocol.collective(Op.CLOSE, uri, group, 2), replies);
        assertEquals(1, server.openFiles(), "rank 2 has not closed");
        server.handle(2, DelegateProtocol.collective(Op.CLOSE, uri, group, 2), replies);
        assertEquals(0, server.openFiles(), "the group's close ends the file here");
        assertEquals(3, answered.size());
    }

    @Test
    void aReadOnlyOpenConcernsOnlyTheRanksThatSentARequestAndItsPagesLastUntilAnotherOpen() throws Exception {
        byte[] content = random(8192);
        Path file = Files.write(dir.resolve("ro"), content);
        String uri = file.toUri().toString();
        DelegateServer server = new DelegateServer(64L << 20, 0);
        java.util.Map<Integer, byte[]> last = new java.util.HashMap<>();
        DelegateServer.Replies replies = (to, reply) -> last.put(to, reply);
        DelegateProtocol.Join open = new DelegateProtocol.Join(false, 4096, 0, Map.of(), 9, 4);   // rank 3 never comes
        server.handle(0, joining(DelegateProtocol.read(uri, ExtentList.of(10, 10)), open), replies);
        assertArrayEquals(Arrays.copyOfRange(content, 10, 20), Arrays.copyOfRange(last.get(0), DelegateProtocol.DATA_OFFSET, last.get(0).length));
        server.handle(1, joining(DelegateProtocol.read(uri, ExtentList.of(5000, 10)), open), replies);
        last.clear();
        server.handle(0, DelegateProtocol.collective(Op.SYNC, uri, 9, 0), replies);
        ok(last.remove(0));   // answered at once: nothing of a read-only open to make durable
        server.handle(0, DelegateProtocol.collective(Op.CLOSE, uri, 9, 1), replies);
        server.handle(1, DelegateProtocol.collective(Op.CLOSE, uri, 9, 0), replies);
        ok(last.remove(0));
        ok(last.remove(1));
        // rank 2 comes late: the pages ranks 0 and 1 loaded are still here for it
        long loads = server.cache().counters().storageReads;
        server.handle(2, joining(DelegateProtocol.read(uri, ExtentList.of(20, 10)), open), replies);
        assertArrayEquals(Arrays.copyOfRange(content, 20, 30), Arrays.copyOfRange(last.get(2), DelegateProtocol.DATA_OFFSET, last.get(2).length));
        assertEquals(loads, server.cache().counters().storageReads, "a late member reads the group's cached page");
        server.handle(2, DelegateProtocol.collective(Op.CLOSE, uri, 9, 0), replies);
        ok(last.remove(2));
        assertEquals(1, server.openFiles(), "rank 3 may still come");
        // the file changes on storage, then a new open reads it: the old group is over, its pages gone
        byte[] changed = random(8192);
        Files.write(file, changed);
        DelegateProtocol.Join reopen = new DelegateProtocol.Join(false, 4096, 0, Map.of(), 10, 1);
        server.handle(0, joining(DelegateProtocol.read(uri, ExtentList.of(10, 10)), reopen), replies);
        assertArrayEquals(Arrays.copyOfRange(changed, 10, 20), Arrays.copyOfRange(last.get(0), DelegateProtocol.DATA_OFFSET, last.get(0).length),
                "close and reopen reads storage");
        server.handle(0, DelegateProtocol.collective(Op.CLOSE, uri, 10, 0), replies);
        assertEquals(0, server.openFiles(), "the new open was alone, and the old group ended when it began");
        // a group all of whose ranks close ends at once
        DelegateProtocol.Join pair = new DelegateProtocol.Join(false, 4096, 0, Map.of(), 11, 2);
        for (int r = 0; r < 2; r++) server.handle(r, joining(DelegateProtocol.read(uri, ExtentList.of(0, 10)), pair), replies);
        for (int r = 0; r < 2; r++) server.handle(r, DelegateProtocol.collective(Op.CLOSE, uri, 11, 0), replies);
        assertEquals(0, server.openFiles());
    }

    @Test
    void requestsThatJoinNothingAreAnsweredByADelegateThatHasNotGotTheFile() throws Exception {
        Path file = Files.write(dir.resolve("none"), random(100));
        String uri = file.toUri().toString();
        DelegateServer server = new DelegateServer(1L << 20, 0);
        assertEquals(0, DelegateProtocol.knownEnd(server.handle(DelegateProtocol.simple(Op.SIZE, uri, 0)), 0), "no unflushed bytes here");
        ok(server.handle(DelegateProtocol.simple(Op.TRUNCATE, uri, 10)));
        assertEquals(0, server.openFiles(), "neither opened the file");
        assertEquals(100, Files.size(file), "the delegate truncated nothing: the rank's driver does");
    }
}
