package io.pdla.storage.posix;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The warm-up's pass through every native call links and customizes them and touches nothing: no transfer or hint
 * counted, no file made, and later reads define no class.
 */
class NativeCallSitesTest {
    @Test
    void linkingTheCallsMovesNothingAndLeavesTheCountsAlone(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(NativePosix.available(), () -> "native library not loaded: " + NativePosix.unavailableReason());
        long calls = NativePosix.callsInThisJvm(), hints = NativePosix.hintsInThisJvm();
        PosixDriver.warmUp();
        PosixDriver.warmUp();   // once per class: the second does nothing
        assertEquals(calls, NativePosix.callsInThisJvm(), "no transfer is counted");
        assertEquals(hints, NativePosix.hintsInThisJvm(), "no read-ahead hint is given");
        assertFalse(Files.exists(Path.of("/dev/null/pdla-link")));

        byte[] content = new byte[70_000];
        new java.util.Random(7).nextBytes(content);
        Path f = dir.resolve("after-warm-up");
        Files.write(f, content);
        byte[] got = new byte[content.length];
        try (StorageFile file = new PosixDriver("true").open(f.toUri(), OpenOptions.readOnly())) {
            for (int at = 0; at < content.length; at += 16384) file.readArray(at, got, at, Math.min(16384, content.length - at));
        }
        assertArrayEquals(content, got, "reads after the warm-up read the file");
        assertEquals(calls + 5, NativePosix.callsInThisJvm(), "each read after it is counted once");

        // the JDK customizes a method handle's invoker after its 128th call, spinning a class: the warm-up did that
        java.lang.management.ClassLoadingMXBean classes = java.lang.management.ManagementFactory.getClassLoadingMXBean();
        try (StorageFile file = new PosixDriver("true").open(f.toUri(), OpenOptions.readOnly())) {
            file.readArray(0, got, 0, 16);
            long loaded = classes.getTotalLoadedClassCount();
            for (int i = 0; i < 400; i++) file.readArray(16L * (i % 4000), got, 0, 16);
            assertEquals(loaded, classes.getTotalLoadedClassCount(), "400 reads after the warm-up define no class");
        }
    }
}
