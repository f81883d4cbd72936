package io.pdla.storage.posix;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class PosixDirectIoTest {
    @TempDir
    Path dir;

    @Test
    void alignedAndUnalignedRequestsBothWorkWithDirectIo() throws IOException {
        Path p = dir.resolve("direct");
        OpenOptions o = OpenOptions.createReadWrite().withHints(Map.of(PosixDriver.HINT_DIRECT_IO, "true"));
        StorageFile f;
        try {
            f = new PosixDriver().open(p.toUri(), o);
        } catch (StorageException e) {
            // only "no O_DIRECT here" (EINVAL at open, or a JVM without it) skips; any other failure fails
            if (e.reason() != StorageException.Reason.UNSUPPORTED) throw e;
            assumeTrue(false, "O_DIRECT not supported on the test file system: " + e.getMessage());
            return;
        }
        int align = Math.toIntExact(Files.getFileStore(p).getBlockSize());
        byte[] data = new byte[align * 8];
        new Random(1).nextBytes(data);
        try (f) {
            assertTrue(((PosixFile) f).directIo());
            ByteBuffer aligned = ByteBuffer.allocateDirect(data.length + align).alignedSlice(align);
            aligned.put(data).flip();
            f.write(0, aligned);                                      // through O_DIRECT
            f.write(align * 8L + 3, ByteBuffer.wrap(new byte[]{1, 2})); // unaligned: ordinary channel
            assertEquals(align * 8L + 5, f.size());
            // cut to data.length: an allocation that starts on a page leaves an aligned slice align bytes longer, and the
            // read would then take the two unaligned bytes past data too
            ByteBuffer back = ByteBuffer.allocateDirect(data.length + align).alignedSlice(align).slice(0, data.length);
            assertEquals(data.length, f.read(0, back));
            byte[] got = new byte[data.length];
            back.flip().get(got);
            assertArrayEquals(data, got);
        }
    }

    @Test
    void alignedRequestsFromHeapArraysGoThroughTheBounceBuffer() throws IOException {
        Path p = dir.resolve("direct-heap");
        OpenOptions o = OpenOptions.createReadWrite().withHints(Map.of(PosixDriver.HINT_DIRECT_IO, "true"));
        StorageFile f;
        try {
            f = new PosixDriver().open(p.toUri(), o);
        } catch (StorageException e) {
            // only "no O_DIRECT here" (EINVAL at open, or a JVM without it) skips; any other failure fails
            if (e.reason() != StorageException.Reason.UNSUPPORTED) throw e;
            assumeTrue(false, "O_DIRECT not supported on the test file system: " + e.getMessage());
            return;
        }
        int align = Math.toIntExact(Files.getFileStore(p).getBlockSize());
        byte[] data = new byte[align * 4];
        new Random(2).nextBytes(data);
        try (f) {
            ByteBuffer src = ByteBuffer.wrap(data, 0, data.length);
            f.write(align, src);                 // heap memory, aligned offset and length: bounce, O_DIRECT
            assertEquals(0, src.remaining(), "the whole source was consumed");
            assertEquals(align * 5L, f.size());
            byte[] got = new byte[data.length + 8];
            ByteBuffer dst = ByteBuffer.wrap(got, 8, data.length); // heap, at an unaligned array position
            assertEquals(data.length, f.read(align, dst));
            assertEquals(8 + data.length, dst.position());
            assertArrayEquals(data, java.util.Arrays.copyOfRange(got, 8, 8 + data.length));
            ByteBuffer pastEnd = ByteBuffer.allocate(align * 2);
            assertEquals(align, f.read(align * 4L, pastEnd), "a read running past end-of-file is short");
        }
    }

    @Test
    void aDirectFileSaysItBypassesTheCacheThroughAnyDecoratorAndAPlainOneDoesNot() throws IOException {
        Path p = dir.resolve("bypass");
        OpenOptions direct = OpenOptions.createReadWrite().withHints(Map.of(PosixDriver.HINT_DIRECT_IO, "true"));
        StorageFile f;
        try {
            f = new PosixDriver().open(p.toUri(), direct);
        } catch (StorageException e) {
            if (e.reason() != StorageException.Reason.UNSUPPORTED) throw e;
            assumeTrue(false, "O_DIRECT not supported on the test file system: " + e.getMessage());
            return;
        }
        try (StorageFile sieved = io.pdla.storage.sieve.SievingStorageFile.wrap(f, Map.of())) {
            assertTrue(f.bypassesCache());
            assertTrue(sieved.bypassesCache(), "data sieving answers with the file it wraps");
        }
        try (StorageFile plain = new PosixDriver().open(p.toUri(), OpenOptions.readWrite())) {
            assertEquals(false, plain.bypassesCache());
        }
    }

    @Test
    void theDriversCommonBypassHintTakesODirectWhereTheFileSystemHasIt() throws IOException {
        Path p = dir.resolve("wished");
        StorageFile probe;
        try {
            probe = new PosixDriver().open(dir.resolve("probe").toUri(), OpenOptions.createReadWrite().withHints(Map.of(PosixDriver.HINT_DIRECT_IO, "true")));
        } catch (StorageException e) {
            if (e.reason() != StorageException.Reason.UNSUPPORTED) throw e;
            // without O_DIRECT here the wish must still open the file, only without it
            try (StorageFile f = new PosixDriver().open(p.toUri(), OpenOptions.createReadWrite().bypassingCache())) {
                assertEquals(false, f.bypassesCache());
            }
            return;
        }
        probe.close();
        int align = Math.toIntExact(Files.getFileStore(dir).getBlockSize());
        byte[] data = new byte[align * 4 + 7];
        new Random(2).nextBytes(data);
        try (StorageFile f = new PosixDriver().open(p.toUri(), new OpenOptions(true, true, true, true, Map.of()).bypassingCache())) {
            assertTrue(f.bypassesCache(), "the wish takes O_DIRECT on a file system that has it");
            ByteBuffer aligned = ByteBuffer.allocateDirect(align * 4 + align).alignedSlice(align).limit(align * 4);
            aligned.put(data, 0, align * 4).flip();
            f.write(0, aligned);                                               // around the cache
            f.write(align * 4L, ByteBuffer.wrap(data, align * 4, 7).slice());  // the unaligned tail through it
            f.sync();
        }
        assertArrayEquals(data, Files.readAllBytes(p));
        try (StorageFile plain = new PosixDriver().open(p.toUri(), OpenOptions.readOnly())) {
            assertEquals(false, plain.bypassesCache(), "without the hint a file keeps the cache");
        }
    }

    @Test
    void aReadWishedAroundTheCacheGoesAroundItOnlyWhileTheFileIsNotCached() throws IOException {
        Path p = dir.resolve("cold");
        int align = Math.toIntExact(Files.getFileStore(dir).getBlockSize());
        int bytes = 64 * align;
        byte[] data = new byte[bytes];
        new Random(3).nextBytes(data);
        try (StorageFile f = new PosixDriver().open(p.toUri(), OpenOptions.createReadWrite().bypassingCache())) {
            if (!f.bypassesCache()) {
                // no O_DIRECT here: a read's wish must open the file all the same
                f.write(0, ByteBuffer.wrap(data));
                try (StorageFile r = new PosixDriver().open(p.toUri(), OpenOptions.readOnly().bypassingCache())) {
                    assertEquals(false, r.bypassesCache());
                }
                return;
            }
            ByteBuffer aligned = ByteBuffer.allocateDirect(bytes + align).alignedSlice(align).limit(bytes);
            f.write(0, aligned.put(data).flip());   // around the cache: none of its pages is resident
            f.sync();
        }
        assertTrue(PageResidency.residentSamples(p) < PageResidency.SAMPLES / 4, "written around the cache, the file is not in it");
        try (StorageFile r = new PosixDriver().open(p.toUri(), OpenOptions.readOnly().bypassingCache())) {
            assertTrue(r.bypassesCache(), "a file not in the cache is read around it");
            ByteBuffer back = ByteBuffer.allocateDirect(bytes + align).alignedSlice(align).limit(bytes);
            assertEquals(bytes, r.read(0, back));
            assertArrayEquals(data, java.util.Arrays.copyOf(toArray(back.flip()), bytes));
        }
        assertArrayEquals(data, Files.readAllBytes(p));   // through the cache: now it is there
        assertEquals(PageResidency.SAMPLES, PageResidency.residentSamples(p));
        try (StorageFile r = new PosixDriver().open(p.toUri(), OpenOptions.readOnly().bypassingCache())) {
            assertEquals(false, r.bypassesCache(), "a cached file is read from the cache");
        }
    }

    private static byte[] toArray(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }
}
