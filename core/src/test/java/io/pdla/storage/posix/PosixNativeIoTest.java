package io.pdla.storage.posix;

import io.pdla.access.ExtentList;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageException;
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
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
        long before = NativePosix.callsInThisLoader();
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
        assertTrue(NativePosix.callsInThisLoader() > before, "seed " + seed + ": the native handle's calls are counted");
    }

    /** 1-12 pieces anywhere up to 70 KB past the end, in any order, overlapping or not. */
    private static ExtentList pieces(Random rnd, long size) {
        ExtentList.Builder b = ExtentList.builder();
        int n = 1 + rnd.nextInt(12);
        for (int i = 0; i < n; i++) b.add((long) (rnd.nextDouble() * (size + 70_000)), 1 + rnd.nextInt(20_000));
        return b.build();
    }

    @Property(tries = 1)
    void directIoKeepsItsOwnPath(@ForAll long seed) throws Exception {
        Path p = dir.resolve("direct");
        byte[] content = new byte[1 << 16];
        new Random(seed).nextBytes(content);
        Files.write(p, content);
        StorageFile f;
        try {
            f = NATIVE.open(p.toUri(), OpenOptions.readWrite().withHints(Map.of(PosixDriver.HINT_DIRECT_IO, "true")));
        } catch (StorageException unsupported) {
            Assumptions.abort("O_DIRECT not supported here: " + unsupported.getMessage());
            return;
        }
        try (f) {
            assertFalse(((PosixFile) f).nativeIo(), "O_DIRECT handles keep the channel and their aligned bounce buffers");
            ByteBuffer d = ByteBuffer.allocate(8192);
            assertEquals(8192, f.read(4096, d));
            assertArrayEquals(Arrays.copyOfRange(content, 4096, 4096 + 8192), d.array(), "aligned read through O_DIRECT");
        }
    }

    @Property(tries = 1)
    void aFullDeviceIsNoSpaceNamingTheFileOnBothPaths(@ForAll long seed) throws Exception {
        Path full = Path.of("/dev/full");
        Assumptions.assumeTrue(Files.isWritable(full), "/dev/full is not here");
        OpenOptions w = new OpenOptions(false, true, false, false, Map.of());
        for (PosixDriver d : new PosixDriver[]{NATIVE, CHANNEL}) {
            try (StorageFile f = d.open(full.toUri(), w)) {
                StorageException e = assertThrows(StorageException.class, () -> f.write(0, ByteBuffer.wrap(new byte[100])));
                assertEquals(StorageException.Reason.NO_SPACE, e.reason(), e.getMessage());
                assertTrue(e.getMessage().startsWith("/dev/full: "), e.getMessage());
            }
        }
    }

    @Property(tries = 1)
    void errnoMapsToTheChannelPathsReasons(@ForAll long seed) {
        Assumptions.assumeTrue(NativePosix.available());
        Path p = Path.of("/some/file");
        assertEquals(StorageException.Reason.NO_SPACE, NativePosix.error(28, p, "write").reason());
        assertEquals(StorageException.Reason.NO_SPACE, NativePosix.error(122, p, "write").reason());
        assertEquals(StorageException.Reason.ACCESS_DENIED, NativePosix.error(13, p, "open").reason());
        assertEquals(StorageException.Reason.NO_SUCH_FILE, NativePosix.error(2, p, "open").reason());
        StorageException ebadf = NativePosix.error(9, p, "read");
        assertEquals(StorageException.Reason.IO, ebadf.reason());
        assertEquals("/some/file: read: Bad file descriptor (errno 9)", ebadf.getMessage());
        assertEquals(StorageException.Reason.IO, NativePosix.error(5, p, "read").reason());
    }

    @Property(tries = 1)
    void aWriteToAReadOnlyHandleIsReadOnlyOnBothPaths(@ForAll long seed) throws Exception {
        Path p = dir.resolve("ro");
        Files.write(p, new byte[10]);
        for (PosixDriver d : new PosixDriver[]{NATIVE, CHANNEL}) {
            try (StorageFile f = d.open(p.toUri(), OpenOptions.readOnly())) {
                StorageException e = assertThrows(StorageException.class, () -> f.write(0, ByteBuffer.wrap(new byte[4])));
                assertEquals(StorageException.Reason.READ_ONLY, e.reason(), e.getMessage());
            }
        }
    }

    @Property(tries = 1)
    void aBadHintValueIsABadArgumentNamingTheHint(@ForAll long seed) throws Exception {
        Path p = dir.resolve("hint");
        Files.write(p, new byte[1]);
        StorageException e = assertThrows(StorageException.class,
                () -> NATIVE.open(p.toUri(), OpenOptions.readOnly().withHints(Map.of(PosixDriver.HINT_NATIVE_IO, "yes"))));
        assertEquals(StorageException.Reason.BAD_ARGUMENT, e.reason());
        assertTrue(e.getMessage().contains("posix_native_io='yes'"), e.getMessage());
    }

    @Property(tries = 1)
    void aReadAfterCloseFailsAsOnTheChannel(@ForAll long seed) throws Exception {
        Path p = dir.resolve("closed");
        Files.write(p, new byte[100]);
        StorageFile f = NATIVE.open(p.toUri(), OpenOptions.readWrite());
        f.close();
        assertThrows(IOException.class, () -> f.read(0, ByteBuffer.allocate(10)));
        assertThrows(IOException.class, () -> f.write(0, ByteBuffer.allocate(10)));
    }
}
