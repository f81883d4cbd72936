package io.pdla.replicator.construct;

import io.pdla.catalog.guard.InStepMark;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shared copy with its writes on a writer thread of their own: every replica gets its pattern's bytes in its order
 * and the digest of exactly those bytes, whatever the patterns, windows and buffers; a replica whose writes fail is
 * dropped alone; an interrupt or a failed read of the original ends the copy with no writer thread left behind.
 */
class SharedOriginalCopyTest {
    @TempDir
    Path tmp;

    @AfterEach
    void noWriterThreadOutlivesItsCopy() {
        assertNull(writerThread(), "a replica writer thread is still alive after its copy");
    }

    private static Thread writerThread() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(ReplicaWriter.THREAD_NAME) && t.isAlive())
                .findFirst().orElse(null);
    }

    private static StorageFile open(Path f) throws IOException {
        URI u = f.toUri();
        return StorageDrivers.installed().forUri(u).open(u, OpenOptions.readOnly());
    }

    private static StorageFile create(Path f) throws IOException {
        URI u = f.toUri();
        return StorageDrivers.installed().forUri(u).open(u, new OpenOptions(true, true, true, true, Map.of()));
    }

    private static byte[] randomFile(Path f, int size, long seed) throws IOException {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        Files.write(f, data);
        return data;
    }

    private static KeyedPattern pattern(Path f, int rank, Geometry g) {
        return KeyedPattern.of(new PatternKey(new AppIdentity("app", 8), rank, f.toUri()), g);
    }

    /** The pattern's bytes in its order, read from the geometry alone: what the copy without a writer thread wrote. */
    private static byte[] expected(KeyedPattern p, byte[] original) {
        byte[] out = new byte[Math.toIntExact(p.totalBytes())];
        int[] at = {0};
        p.geometry().forEachExtent((off, len) -> {
            System.arraycopy(original, Math.toIntExact(off), out, at[0], Math.toIntExact(len));
            at[0] += Math.toIntExact(len);
        });
        return out;
    }

    private static byte[] sha256(byte[] b) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(b);
    }

    /** A member writing into a fresh file of its own; {@code dropped} counts the runs of its whenDropped. */
    private static SharedOriginalCopy.Member member(KeyedPattern p, StorageFile out, AtomicInteger dropped) {
        return new SharedOriginalCopy.Member(p, out, InStepMark.newDigest(), dropped::incrementAndGet);
    }

    /** A random pattern ascending through [0, size): strided, contiguous, or two segments a cycle with holes. */
    private static Geometry randomAscending(Random r, int size) {
        switch (r.nextInt(3)) {
            case 0 -> {
                int block = 1 + r.nextInt(20_000);
                long stride = block + r.nextInt(3 * block + 1);
                long count = Math.max(1, (size - block) / stride);
                long start = r.nextInt((int) Math.max(1, size - ((count - 1) * stride + block)));
                return Geometry.strided(start, block, stride, count);
            }
            case 1 -> {
                int len = 1 + r.nextInt(size / 2);
                return Geometry.contiguous(r.nextInt(size - len), len);
            }
            default -> {
                int a = 1 + r.nextInt(3000);
                int gap = r.nextInt(2000);
                int b = 1 + r.nextInt(3000);
                long cycle = a + gap + b + r.nextInt(5000);
                long cycles = Math.max(1, (size - cycle) / cycle);
                return Geometry.of(new Geometry.Spec(r.nextInt((int) cycle), new long[]{0, a + gap}, new long[]{a, b},
                        new long[]{cycle}, new long[]{cycles}, cycles * (a + b)));
            }
        }
    }

    @Test
    void everyReplicaHoldsItsPatternsBytesAndTheirDigestWhateverThePatternsWindowsAndBuffers() throws Exception {
        Random r = new Random(35);
        for (int round = 0; round < 12; round++) {
            int size = (1 << 20) + r.nextInt(1 << 20);
            Path f = tmp.resolve("orig-" + round);
            byte[] data = randomFile(f, size, round);
            int members = 2 + r.nextInt(5);
            // windows far smaller than a member's buffer (64 KiB at least) or larger: the two buffers alternate many times
            int window = 1024 + r.nextInt(200_000);
            List<SharedOriginalCopy.Member> ms = new ArrayList<>();
            List<StorageFile> outs = new ArrayList<>();
            AtomicInteger dropped = new AtomicInteger();
            for (int k = 0; k < members; k++) {
                Geometry g = randomAscending(r, size);
                assertTrue(SharedOriginalCopy.ascending(g), g.toString());
                StorageFile out = create(tmp.resolve("replica-" + round + "-" + k));
                outs.add(out);
                ms.add(member(pattern(f, k, g), out, dropped));
            }
            try (StorageFile in = open(f)) {
                new SharedOriginalCopy(in, window, new RateLimit(0)).run(ms);
            } finally {
                for (StorageFile o : outs) o.close();
            }
            assertNull(writerThread(), "round " + round + ": the writer thread ended with the copy");
            assertEquals(0, dropped.get(), "round " + round + ": nothing dropped");
            for (int k = 0; k < members; k++) {
                SharedOriginalCopy.Member m = ms.get(k);
                byte[] want = expected(m.pattern, data);
                String what = "round " + round + ", window " + window + ", member " + k + " " + m.pattern.describe();
                assertNull(m.failure(), what);
                assertEquals(want.length, m.written(), what);
                assertArrayEquals(want, Files.readAllBytes(tmp.resolve("replica-" + round + "-" + k)), what);
                assertArrayEquals(sha256(want), m.digest.digest(), what + ": the digest of its own bytes");
            }
        }
    }

    /** A real output file whose {@code failAt}-th write (from 1) throws, as a full or failing store would. */
    private static final class FailingWrites extends io.pdla.testing.ForwardingStorageFile {
        private final int failAt;
        private final boolean timeout;
        private int writes;

        FailingWrites(StorageFile d, int failAt) {
            this(d, failAt, false);
        }

        /** {@code timeout}: the failure is a {@link java.net.SocketTimeoutException}, an InterruptedIOException with no interrupt. */
        FailingWrites(StorageFile d, int failAt, boolean timeout) {
            super(d);
            this.failAt = failAt;
            this.timeout = timeout;
        }

        @Override
        public void write(long offset, ByteBuffer src) throws IOException {
            if (++writes == failAt) {
                String why = "injected: write " + writes + " of " + uri() + " failed";
                throw timeout ? new java.net.SocketTimeoutException(why) : new IOException(why);
            }
            super.write(offset, src);
        }
    }

    @Test
    void aReplicaWhoseWriteFailsMidCopyIsDroppedAloneAndTheOthersGetEveryByte() throws Exception {
        dropsTheFailingReplicaAlone(false);
    }

    /** A store's timeout (HDFS: SocketTimeoutException) is an InterruptedIOException, not an interrupt: the others go on. */
    @Test
    void aReplicaWhoseWriteTimesOutIsDroppedAloneAndTheOthersGetEveryByte() throws Exception {
        dropsTheFailingReplicaAlone(true);
    }

    private void dropsTheFailingReplicaAlone(boolean timeout) throws Exception {
        Path f = tmp.resolve("orig");
        byte[] data = randomFile(f, 4 * 8192 * 64, 7);
        List<SharedOriginalCopy.Member> ms = new ArrayList<>();
        List<StorageFile> outs = new ArrayList<>();
        AtomicInteger[] dropped = new AtomicInteger[4];
        for (int k = 0; k < 4; k++) {
            dropped[k] = new AtomicInteger();
            StorageFile out = create(tmp.resolve("replica-" + k));
            // rank 1's third write fails: its 512 KiB go out in 64 KiB buffers, so two were written and more follow
            if (k == 1) out = new FailingWrites(out, 3, timeout);
            outs.add(out);
            ms.add(member(pattern(f, k, Geometry.strided((long) k * 8192, 8192, 4 * 8192, 64)), out, dropped[k]));
        }
        try (StorageFile in = open(f)) {
            new SharedOriginalCopy(in, 16 << 10, new RateLimit(0)).run(ms);
        } finally {
            for (StorageFile o : outs) o.close();
        }
        assertNotNull(ms.get(1).failure(), "the replica whose write failed is dropped");
        assertTrue(ms.get(1).failure().getMessage().contains("injected: write 3"), ms.get(1).failure().getMessage());
        assertEquals(1, dropped[1].get(), "its space is freed once");
        assertEquals(2L * SharedOriginalCopy.MIN_PENDING, ms.get(1).written(), "nothing written into it after the failure");
        for (int k : new int[]{0, 2, 3}) {
            SharedOriginalCopy.Member m = ms.get(k);
            assertNull(m.failure(), "member " + k);
            assertEquals(0, dropped[k].get(), "member " + k);
            byte[] want = expected(m.pattern, data);
            assertArrayEquals(want, Files.readAllBytes(tmp.resolve("replica-" + k)), "member " + k);
            assertArrayEquals(sha256(want), m.digest.digest(), "member " + k);
        }
    }

    /**
     * With write-behind on, each replica is synced along the way, every that many bytes written into it, and never after
     * the copy returned (the builder renames or deletes the file then); its bytes and digest are as without it. Off, none.
     */
    @Test
    void writeBehindSyncsEachReplicaAlongTheWayAndNothingAfterTheCopy() throws Exception {
        Path f = tmp.resolve("orig");
        byte[] data = randomFile(f, 4 << 20, 9);
        for (long every : new long[]{0, 256 << 10}) {
            List<SharedOriginalCopy.Member> ms = new ArrayList<>();
            List<CountingSyncs> outs = new ArrayList<>();
            for (int k = 0; k < 2; k++) {
                CountingSyncs out = new CountingSyncs(create(tmp.resolve("wb-" + every + "-" + k)));
                outs.add(out);
                ms.add(member(pattern(f, k, Geometry.strided((long) k * 4096, 4096, 8192, 256)), out, new AtomicInteger()));
            }
            try (StorageFile in = open(f)) {
                SharedOriginalCopy copy = new SharedOriginalCopy(in, 64 << 10, new RateLimit(0));
                copy.writeBehind(every);
                copy.run(ms);
            }
            int[] atReturn = new int[2];
            for (int k = 0; k < 2; k++) atReturn[k] = outs.get(k).syncs.get();
            Thread.sleep(150);   // longer than the write-behind thread's park: a sync it still owed would show now
            for (int k = 0; k < 2; k++) {
                CountingSyncs out = outs.get(k);
                assertEquals(atReturn[k], out.syncs.get(), "no sync after the copy returned, member " + k);
                if (every == 0) assertEquals(0, out.syncs.get(), "write-behind off: the builder's own sync alone");
                // 1 MiB each: at least one sync per 256 KiB written but the last (its bytes may still be waiting)
                else assertTrue(out.syncs.get() >= 1 && out.syncs.get() <= 4, "member " + k + " synced " + out.syncs.get() + " times");
                out.close();
                byte[] want = expected(ms.get(k).pattern, data);
                assertArrayEquals(want, Files.readAllBytes(tmp.resolve("wb-" + every + "-" + k)), "member " + k);
                assertArrayEquals(sha256(want), ms.get(k).digest.digest(), "member " + k);
            }
        }
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().equals("pdla-replica-write-behind") && t.isAlive()),
                "no write-behind thread outlives its copy");
    }

    /** A real replica output that counts its syncs, each write taking 20 ms (a disk's pace: the copy outlasts a few syncs). */
    private static final class CountingSyncs extends io.pdla.testing.ForwardingStorageFile {
        final AtomicInteger syncs = new AtomicInteger();

        CountingSyncs(StorageFile d) {
            super(d);
        }

        @Override
        public void write(long offset, ByteBuffer src) throws IOException {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("write");
            }
            super.write(offset, src);
        }

        @Override
        public void sync() throws IOException {
            syncs.incrementAndGet();
            super.sync();
        }
    }

    /** A real original whose {@code failAt}-th read (from 1) throws. */
    private static final class FailingReads extends io.pdla.testing.ForwardingStorageFile {
        private final int failAt;
        private int reads;

        FailingReads(StorageFile d, int failAt) {
            super(d);
            this.failAt = failAt;
        }

        @Override
        public int read(long offset, ByteBuffer dst) throws IOException {
            if (++reads == failAt) throw new IOException("injected: read " + reads + " of the original failed");
            return super.read(offset, dst);
        }
    }

    /** Two replicas of {@code f}'s 4 KiB blocks taken in turn (rank 0 the even ones, rank 1 the odd), their outputs added to {@code outs}. */
    private List<SharedOriginalCopy.Member> twoInterleavedMembers(Path f, List<StorageFile> outs) throws IOException {
        List<SharedOriginalCopy.Member> ms = new ArrayList<>();
        for (int k = 0; k < 2; k++) {
            StorageFile out = create(tmp.resolve("replica-" + k));
            outs.add(out);
            ms.add(member(pattern(f, k, Geometry.strided((long) k * 4096, 4096, 8192, 128)), out, new AtomicInteger()));
        }
        return ms;
    }

    @Test
    void aFailedReadOfTheOriginalIsThrownAndLeavesNoWriterThread() throws Exception {
        Path f = tmp.resolve("orig");
        randomFile(f, 1 << 20, 8);
        List<StorageFile> outs = new ArrayList<>();
        List<SharedOriginalCopy.Member> ms = twoInterleavedMembers(f, outs);
        try (StorageFile in = new FailingReads(open(f), 40)) {
            // 16 KiB windows: the 40th read is past the first buffers handed to the writer
            IOException e = assertThrows(IOException.class, () -> new SharedOriginalCopy(in, 16 << 10, new RateLimit(0)).run(ms));
            assertTrue(e.getMessage().contains("injected: read 40"), e.getMessage());
            assertTrue(ms.get(0).written() > 0, "the writer had written before the read failed");
        } finally {
            for (StorageFile o : outs) o.close();
        }
        assertNull(writerThread(), "the writer thread ended with the failed copy");
    }

    @Test
    void anInterruptEndsACopyWhoseWritesAreHeldUpWithNoWriterThreadLeft() throws Exception {
        Path f = tmp.resolve("orig");
        randomFile(f, 1 << 20, 9);
        List<StorageFile> outs = new ArrayList<>();
        List<SharedOriginalCopy.Member> ms = twoInterleavedMembers(f, outs);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        try (StorageFile in = open(f)) {
            // one byte a second: the writer sleeps in the rate limit after its first write, so the copy cannot end by itself
            Thread copier = new Thread(() -> {
                try {
                    new SharedOriginalCopy(in, 16 << 10, new RateLimit(1)).run(ms);
                } catch (Throwable t) {
                    thrown.set(t);
                }
            }, "test-copier");
            copier.start();
            // mid-copy: the writer asleep in the rate limit, the copy waiting for a buffer it holds (not inside a read)
            Thread writer;
            while ((writer = writerThread()) == null || writer.getState() != Thread.State.TIMED_WAITING
                    || copier.getState() != Thread.State.WAITING) {
                Thread.sleep(1);
            }
            copier.interrupt();
            copier.join(30_000);   // a guard against a hang, not a measure
            assertFalse(copier.isAlive(), "the copy ended on its interrupt");
            writer.join(30_000);
            assertFalse(writer.isAlive(), "its writer thread ended with it");
        } finally {
            for (StorageFile o : outs) o.close();
        }
        assertInstanceOf(InterruptedIOException.class, thrown.get(), String.valueOf(thrown.get()));
        assertSame(null, writerThread());
    }
}
