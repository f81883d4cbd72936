package io.pdla.redirect;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
    void aFailedWarmUpIsLoggedNotThrown() throws Exception {
        Path notADirectory = Files.writeString(tmp.resolve("file"), "x");
        assertThrows(java.io.IOException.class, () -> CatalogWarmup.run(notADirectory), "no scratch catalog inside a plain file");
        CatalogWarmup.runQuietly(notADirectory);   // what the warm-up's thread runs: the same failure, not thrown
        assertEquals("x", Files.readString(notADirectory), "nothing written where the scratch catalog could not be made");
    }

    @Test
    void pdlaWarmupFalseTurnsItOff() {
        assertTrue(CatalogWarmup.enabled(null));
        assertTrue(CatalogWarmup.enabled("true"));
        assertFalse(CatalogWarmup.enabled(" FALSE "));
    }

    @Test
    void aCatalogNoDaemonHasMadeIsNotWarmedFor() throws Exception {
        Path absent = tmp.resolve("catalog");
        assertFalse(CatalogWarmup.worthWarmingFor(absent), "no catalog: no daemon builds for this job");
        assertFalse(CatalogWarmup.worthWarmingFor(null));
        assertNull(CatalogWarmup.startOnce(absent));
        Files.createDirectories(absent);
        assertTrue(CatalogWarmup.worthWarmingFor(absent), "a daemon made it: a replica may come");
    }

    @Test
    void startsOnceForThisClassLoader() throws Exception {
        Thread first = CatalogWarmup.startOnce(tmp);
        if (first != null) {
            first.join(60_000);
            assertFalse(first.isAlive(), "the warm-up ends on its own");
            assertTrue(first.isDaemon(), "a daemon thread never keeps a finished job alive");
        }
        assertNull(CatalogWarmup.startOnce(tmp), "a second open of the rank does not warm up again");
    }
}
