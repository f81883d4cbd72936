package io.pdla.storage.posix;

import io.pdla.access.ExtentList;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The native path against the FileChannel path: the same random reads, writes and piece lists on two copies of one
 * file, one opened with {@code posix_native_io=true}, one with {@code false}, must return the same counts and
 * bytes, leave buffers at the same positions and the files byte-identical. End-of-file short reads included.
 */
class PosixNativeIoTest {
    private Path dir;

    @BeforeProperty
    void makeDir() throws IOException {
        dir = Files.createTempDirectory("pdla-native-io");
    }

    @AfterProperty
    void removeDir() throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }

    private static final PosixDriver NATIVE = new PosixDriver("true");
    private static final PosixDriver CHANNEL = new PosixDriver("false");

    @Property(tries = 60)
    void nativeAndChannelPathsGiveTheSameBytes(@ForAll long seed) throws Exception {
        Assumptions.assumeTrue(NativePosix.available(), () -> "native library not loaded: " + NativePosix.unavailableReason());
        Random rnd = new Random(seed);
        byte[] content = new byte[rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(300_000)];
        rnd.nextBytes(content);
        Path a = dir.resolve("native-" + seed), b = dir.resolve("channel-" + seed);
        Files.write(a, content);
        Files.write(b, content);
        boolean readOnly = rnd.nextInt(3) == 0; // read-only files take the mapping for pieces >= 256 KiB
        OpenOptions o = readOnly ? OpenOptions.readOnly() : OpenOptions.readWrite();
        long before = NativePosix.callsInThisJvm();
        try (StorageFile fa = NATIVE.open(a.toUri(), o); StorageFile fb = CHANNEL.open(b.toUri(), o)) {
            assertTrue(((PosixFile) fa).nativeIo(), "the native handle uses the library");
            assertFalse(((PosixFile) fb).nativeIo(), "posix_native_io=false keeps the channel");
            for (int step = 0; step < 40; step++) {
                String what = "seed " + seed + ", step " + step + ": ";
                int kind = rnd.nextInt(readOnly ? 2 : 4);
                long size = fb.size();
                switch (kind) {
                    case 0 -> { // contiguous read, possibly past the end
                        long off = (long) (rnd.nextDouble() * (size + 70_000));
                        int len = rnd.nextInt(5) == 0 ? MappedReads.MIN_BYTES + rnd.nextInt(50_000) : rnd.nextInt(70_000);
                        int at = rnd.nextInt(9);
                        ByteBuffer da = ByteBuffer.wrap(new byte[len + 9], at, len).slice();
                        ByteBuffer db = ByteBuffer.wrap(new byte[len + 9], at, len).slice();
                        assertEquals(fb.read(off, db), fa.read(off, da), what + "read at " + off + " of " + len);
                        assertEquals(db.position(), da.position(), what + "position after read");
                        assertArrayEquals(db.array(), da.array(), what + "bytes read at " + off);
                    }
                    case 1 -> { // piece list read into consecutive bytes
                        ExtentList l = pieces(rnd, size);
                        int len = (int) l.totalBytes(), at = rnd.nextInt(9);
                        ByteBuffer da = ByteBuffer.wrap(new byte[len + 9], at, len + rnd.nextInt(2)).slice();
                        ByteBuffer db = ByteBuffer.wrap(new byte[len + 9], at, da.remaining()).slice();
                        assertEquals(fb.readv(l, db), fa.readv(l, da), what + "readv " + l);
                        assertEquals(db.position(), da.position(), what + "position after readv");
                        assertArrayEquals(db.array(), da.array(), what + "bytes of readv " + l);
                    }
                    case 2 -> { // contiguous write, possibly past the end
                        long off = (long) (rnd.nextDouble() * (size + 70_000));
                        byte[] data = new byte[rnd.nextInt(70_000)];
                        rnd.nextBytes(data);
                        int at = rnd.nextInt(Math.max(1, data.length));
                        ByteBuffer sa = ByteBuffer.wrap(data, at, data.length - at), sb = ByteBuffer.wrap(data, at, data.length - at);
                        fa.write(off, sa);
                        fb.write(off, sb);
                        assertEquals(sb.position(), sa.position(), what + "position after write");
                    }
                    default -> { // piece list written from consecutive bytes, in list order (overlaps included)
                        ExtentList l = pieces(rnd, size);
                        byte[] data = new byte[(int) l.totalBytes()];
                        rnd.nextBytes(data);
                        ByteBuffer sa = ByteBuffer.wrap(data), sb = ByteBuffer.wrap(data);
                        assertEquals(fb.writev(l, sb), fa.writev(l, sa), what + "writev " + l);
                        assertEquals(sb.position(), sa.position(), what + "position after writev");
                    }
                }
                assertEquals(fb.size(), fa.size(), what + "file size");
            }
        }
        assertArrayEquals(Files.readAllBytes(b), Files.readAllBytes(a), "seed " + seed + ": the two files");
        assertTrue(NativePosix.callsInThisJvm() > before, "seed " + seed + ": the native handle's calls are counted");
    }

    /** 1-12 pieces anywhere up to 70 KB past the end, in any order, overlapping or not. */
    private static ExtentList pieces(Random rnd, long size) {
        ExtentList.Builder b = ExtentList.builder();
        int n = 1 + rnd.nextInt(12);
        for (int i = 0; i < n; i++) b.add((long) (rnd.nextDouble() * (size + 70_000)), 1 + rnd.nextInt(20_000));
        return b.build();
    }
}
