package io.pdla.storage.posix;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.RangeLock;
import io.pdla.storage.StorageFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The POSIX driver's byte-range locks as another process sees them ({@link LockProbeMain} in a child JVM): held by
 * the handle's open file description, so they outlive the close of another handle of the same file in this JVM
 * (which drops every lock {@code FileChannel.lock} took for the process), and a thread's unlock leaves the adjacent
 * range another thread of the same handle holds locked.
 */
class PosixDescriptionLocksTest {
    @TempDir
    Path dir;
    private Path file;
    private final PosixDriver driver = new PosixDriver();

    @BeforeEach
    void nativeLibraryAndAFile() throws Exception {
        Assumptions.assumeTrue(NativePosix.available(), () -> "native library not built here: " + NativePosix.unavailableReason());
        file = dir.resolve("locked");
        Files.write(file, new byte[4096]);
    }

    @Test
    void aLockStillExcludesOtherProcessesAfterAnotherHandleOfTheFileCloses() throws Exception {
        try (StorageFile a = driver.open(file.toUri(), OpenOptions.readWrite())) {
            StorageFile b = driver.open(file.toUri(), OpenOptions.readWrite());
            b.write(0, ByteBuffer.wrap(new byte[16]));
            try (RangeLock held = a.lock(0, 100)) {
                assertEquals("refused", probe(50, 10), "held, both handles open");
                b.close();
                assertEquals("refused", probe(50, 10), "held, after the other handle of the file closed");
                assertEquals("granted", probe(100, 10), "a range next to the held one");
            }
            assertEquals("granted", probe(50, 10), "released");
        }
    }

    @Test
    void oneThreadsUnlockLeavesTheAdjacentRangeOfAnotherThreadOfTheHandleLocked() throws Exception {
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (StorageFile f = driver.open(file.toUri(), OpenOptions.readWrite())) {
            RangeLock first = f.lock(0, 100);
            Future<RangeLock> second = other.submit(() -> f.lock(100, 100));
            RangeLock adjacent = second.get(10, TimeUnit.SECONDS);
            first.close();
            assertEquals("refused", probe(150, 10), "the other thread's range, after this thread unlocked its own");
            assertEquals("granted", probe(0, 100), "this thread's range, unlocked");
            other.submit(() -> {
                adjacent.close();
                return null;
            }).get(10, TimeUnit.SECONDS);
            assertEquals("granted", probe(150, 10), "both released");
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void withNativeIoOffTheChannelLocksStillExclude() throws Exception {
        OpenOptions noNative = new OpenOptions(true, true, false, false, Map.of(PosixDriver.HINT_NATIVE_IO, "false"));
        try (StorageFile f = driver.open(file.toUri(), noNative); RangeLock held = f.lock(0, 100)) {
            assertEquals("refused", probe(50, 10));
        }
        assertEquals("granted", probe(50, 10));
    }

    private String probe(long offset, long length) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path classes = Path.of(LockProbeMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder(java.toString(), "-cp", classes.toString(), LockProbeMain.class.getName(), file.toString(),
                Long.toString(offset), Long.toString(length)).redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe JVM did not finish");
        String out = new String(p.getInputStream().readAllBytes()).trim();
        assertEquals(0, p.exitValue(), out);
        return out;
    }
}
