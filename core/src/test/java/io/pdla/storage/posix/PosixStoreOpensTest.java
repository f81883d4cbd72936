package io.pdla.storage.posix;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link StorageFile#storeOpens} of a POSIX file is the number of descriptors of that file the handle holds, as the
 * kernel lists them in /proc/self/fd: what a POSIX-level tracer (Darshan) counts as opens, and what pdla's tracer now
 * counts in POSIX_OPENS. With and without the native library, with O_DIRECT.
 */
class PosixStoreOpensTest {
    @TempDir
    Path dir;

    private static long descriptorsOf(Path file) throws IOException {
        Path real = file.toRealPath();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).equals(real);
                } catch (IOException gone) {
                    return false; // the listing's own descriptor, closed by now
                }
            }).count();
        }
    }

    private void check(PosixDriver driver, OpenOptions options, String what) throws IOException {
        Path f = dir.resolve(what);
        Files.write(f, new byte[1 << 16]);
        long before = descriptorsOf(f);
        try (StorageFile s = driver.open(f.toUri(), options)) {
            assertEquals(descriptorsOf(f) - before, s.storeOpens(), what + ": descriptors held against storeOpens()");
        }
        assertEquals(before, descriptorsOf(f), what + ": close releases every descriptor");
    }

    @Test
    void storeOpensIsTheNumberOfDescriptorsHeld() throws IOException {
        check(new PosixDriver("true"), OpenOptions.readOnly(), "native-read-only");
        check(new PosixDriver("true"), OpenOptions.readWrite(), "native-read-write");
        check(new PosixDriver("false"), OpenOptions.readWrite(), "channel-only");
        check(new PosixDriver("false"), OpenOptions.readWrite().withHints(Map.of(PosixDriver.HINT_DIRECT_IO, "true")), "direct");
    }
}
