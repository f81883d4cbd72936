package io.pdla.straight;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The straight path's warm-up makes its reads and writes through the production path once per JVM, and leaves nothing behind:
 * its temporary file is gone when it returns.
 */
class StraightPathWarmupTest {
    @Test
    void readsThroughThePathOncePerJvmAndLeavesNoFile() throws IOException {
        long before = warmupFiles();
        assertEquals(StraightPathWarmup.CALLS, StraightPathWarmup.run(), "every warm-up call that the path took moved its whole 4 KiB");
        assertEquals(0, StraightPathWarmup.run(), "a second warm-up in the same JVM does nothing");
        assertEquals(before, warmupFiles(), "the warm-up's temporary file is deleted");
    }

    private static long warmupFiles() throws IOException {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith("pdla-warmup")).count();
        }
    }
}
