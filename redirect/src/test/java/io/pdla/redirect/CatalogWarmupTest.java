package io.pdla.redirect;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The catalog warm-up runs a real look-up on a scratch catalog, leaves nothing behind, and runs once per rank's copy. */
class CatalogWarmupTest {
    @TempDir
    Path tmp;

    @Test
    void looksUpInAScratchCatalogAndDeletesIt() throws Exception {
        assertEquals(0, CatalogWarmup.run(tmp), "a scratch catalog has no entries");
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(0, left.count(), "the scratch catalog and its original are deleted");
        }
    }

    @Test
    void aFailedWarmUpIsNotThrownToTheJob() throws Exception {
        Path notADirectory = Files.writeString(tmp.resolve("file"), "x");
        assertThrowsIoOnly(notADirectory);
    }

    private static void assertThrowsIoOnly(Path parent) {
        try {
            CatalogWarmup.run(parent);
            throw new AssertionError("a scratch catalog cannot be made inside a plain file");
        } catch (java.io.IOException expected) {
            // runQuietly logs exactly these (and runtime failures) and lets the first real look-up pay instead
        }
    }

    @Test
    void pdlaWarmupFalseTurnsItOff() {
        assertTrue(CatalogWarmup.enabled(null));
        assertTrue(CatalogWarmup.enabled("true"));
        assertFalse(CatalogWarmup.enabled(" FALSE "));
    }

    @Test
    void startsOnceForThisClassLoader() throws Exception {
        Thread first = CatalogWarmup.startOnce();
        if (first != null) {
            first.join(60_000);
            assertFalse(first.isAlive(), "the warm-up ends on its own");
            assertTrue(first.isDaemon(), "a daemon thread never keeps a finished job alive");
        }
        assertNull(CatalogWarmup.startOnce(), "a second open of the rank does not warm up again");
    }
}
