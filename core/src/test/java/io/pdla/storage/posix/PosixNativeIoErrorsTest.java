package io.pdla.storage.posix;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The native path's failures are the FileChannel path's: the same reasons, messages naming the file; O_DIRECT handles
 * keep their own path; a bad hint value is refused.
 */
class PosixNativeIoErrorsTest {
    @TempDir
    Path dir;

    private static final PosixDriver NATIVE = new PosixDriver("true");
    private static final PosixDriver CHANNEL = new PosixDriver("false");

    @Test
    void directIoKeepsItsOwnPath() throws Exception {
        Path p = dir.resolve("direct");
        byte[] content = new byte[1 << 16];
        new Random().nextBytes(content);
        Files.write(p, content);
        StorageFile f;
        try {
            f = NATIVE.open(p.toUri(), OpenOptions.readWrite().withHints(Map.of(PosixDriver.HINT_DIRECT_IO, "true")));
        } catch (StorageException e) {
            // only "no O_DIRECT here" (EINVAL at open, or a JVM without it) skips; any other failure fails
            if (e.reason() != StorageException.Reason.UNSUPPORTED) throw e;
            Assumptions.abort("O_DIRECT not supported here: " + e.getMessage());
            return;
        }
        try (f) {
            assertFalse(((PosixFile) f).nativeIo(), "O_DIRECT handles keep the channel and their aligned bounce buffers");
            ByteBuffer d = ByteBuffer.allocate(8192);
            assertEquals(8192, f.read(4096, d));
            assertArrayEquals(Arrays.copyOfRange(content, 4096, 4096 + 8192), d.array(), "aligned read through O_DIRECT");
        }
    }

    @Test
    void aFullDeviceIsNoSpaceNamingTheFileOnBothPaths() throws Exception {
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

    @Test
    void errnoMapsToTheChannelPathsReasons() {
        Assumptions.assumeTrue(NativePosix.available(), () -> "native library not loaded: " + NativePosix.unavailableReason());
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

    @Test
    void aWriteToAReadOnlyHandleIsReadOnlyOnBothPaths() throws Exception {
        Path p = dir.resolve("ro");
        Files.write(p, new byte[10]);
        for (PosixDriver d : new PosixDriver[]{NATIVE, CHANNEL}) {
            try (StorageFile f = d.open(p.toUri(), OpenOptions.readOnly())) {
                StorageException e = assertThrows(StorageException.class, () -> f.write(0, ByteBuffer.wrap(new byte[4])));
                assertEquals(StorageException.Reason.READ_ONLY, e.reason(), e.getMessage());
            }
        }
    }

    @Test
    void aBadHintValueIsABadArgumentNamingTheHint() throws Exception {
        Path p = dir.resolve("hint");
        Files.write(p, new byte[1]);
        StorageException e = assertThrows(StorageException.class,
                () -> NATIVE.open(p.toUri(), OpenOptions.readOnly().withHints(Map.of(PosixDriver.HINT_NATIVE_IO, "yes"))));
        assertEquals(StorageException.Reason.BAD_ARGUMENT, e.reason());
        assertTrue(e.getMessage().contains("posix_native_io='yes'"), e.getMessage());
        // posix_direct_io used to read anything but "true" as false, silently
        e = assertThrows(StorageException.class,
                () -> NATIVE.open(p.toUri(), OpenOptions.readOnly().withHints(Map.of(PosixDriver.HINT_DIRECT_IO, "yes"))));
        assertEquals(StorageException.Reason.BAD_ARGUMENT, e.reason());
        assertTrue(e.getMessage().contains("posix_direct_io='yes'"), e.getMessage());
        // the spellings every on/off hint takes
        NATIVE.open(p.toUri(), OpenOptions.readOnly().withHints(Map.of(PosixDriver.HINT_DIRECT_IO, " Disable", PosixDriver.HINT_NATIVE_IO, "ENABLE"))).close();
    }

    @Test
    void aReadAfterCloseFailsAsOnTheChannel() throws Exception {
        Path p = dir.resolve("closed");
        Files.write(p, new byte[100]);
        StorageFile f = NATIVE.open(p.toUri(), OpenOptions.readWrite());
        f.close();
        assertThrows(IOException.class, () -> f.read(0, ByteBuffer.allocate(10)));
        assertThrows(IOException.class, () -> f.write(0, ByteBuffer.allocate(10)));
    }
}
