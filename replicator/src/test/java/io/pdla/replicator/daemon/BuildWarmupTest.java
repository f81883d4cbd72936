package io.pdla.replicator.daemon;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The long-running daemon's warm-up: scratch replicas built through the production path, in a scratch catalog and
 * directory that are gone afterwards, within the daemon's rate, and never a failure of the daemon.
 */
class BuildWarmupTest {
    @TempDir
    Path tmp;

    private List<String> leftovers() throws Exception {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".pdla-daemon-warmup-")).toList();
        }
    }

    @Test
    void aWarmUpPublishesItsScratchReplicasAndLeavesNothingBehind() throws Exception {
        DaemonOptions o = DaemonOptions.defaults(tmp.resolve("catalog"));
        assertEquals(tmp, BuildWarmup.scratchParent(o), "beside the catalog");
        BuildWarmup.Outcome out = BuildWarmup.run(o);
        assertNull(out.failure(), out.describe());
        assertEquals(BuildWarmup.ROUNDS, out.published(), "one combined replica per round");
        assertFalse(out.gaveWay());
        assertTrue(out.describe().startsWith("build path warmed up"), out.describe());
        assertEquals(List.of(), leftovers(), "the scratch directory is deleted");
        assertFalse(Files.exists(tmp.resolve("catalog")), "the daemon's own catalog is not touched");
    }

    @Test
    void aReplicaRootTakesTheScratchAndARateLimitShrinksItAndHolds() throws Exception {
        Path root = tmp.resolve("replicas");
        long rate = 1 << 20;
        DaemonOptions o = DaemonOptions.defaults(tmp.resolve("catalog")).withReplicaRoot(root.toUri()).withRate(4 << 20, rate);
        assertEquals(root, BuildWarmup.scratchParent(o));
        long bytes = BuildWarmup.scratchBytes(o);
        assertTrue(bytes < BuildWarmup.FILE_BYTES && bytes % (BuildWarmup.RANKS * BuildWarmup.BLOCK) == 0, "shrunk to whole blocks: " + bytes);
        long t0 = System.nanoTime();
        BuildWarmup.Outcome out = BuildWarmup.run(o);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertNull(out.failure(), out.describe());
        assertEquals(BuildWarmup.ROUNDS, out.published());
        // each round's copy waits until its bytes fit the rate
        long floor = BuildWarmup.ROUNDS * bytes * 1000 / rate;
        assertTrue(millis >= floor * 9 / 10, "the copies kept to " + rate + " B/s: " + millis + " ms for " + BuildWarmup.ROUNDS + " x " + bytes + " bytes");
        try (Stream<Path> s = Files.list(root)) {
            assertEquals(List.of(), s.toList(), "nothing left in the replica root");
        }
        assertEquals(BuildWarmup.RANKS * BuildWarmup.BLOCK * 4L,
                BuildWarmup.scratchBytes(o.withRate(4 << 20, 1024)), "a tiny rate still gives each rank blocks to copy");
        assertEquals(BuildWarmup.FILE_BYTES, BuildWarmup.scratchBytes(o.withRate(4 << 20, 0)), "no limit: the whole scratch");
    }

    @Test
    void workThatArrivesCutsTheWarmUpShortAtTheNextRound() throws Exception {
        DaemonOptions o = DaemonOptions.defaults(tmp.resolve("catalog"));
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        // nothing waits at the start and before round 0; a hand-off has landed by the time round 1 would begin
        BuildWarmup.Outcome out = BuildWarmup.run(o, () -> asked.incrementAndGet() > 2);
        assertNull(out.failure(), out.describe());
        assertTrue(out.gaveWay(), out.describe());
        assertEquals(1, out.published(), "round 0 ran, round 1 gave way");
        assertTrue(out.describe().contains("cut short after 1 of " + BuildWarmup.ROUNDS), out.describe());
        assertEquals(List.of(), leftovers(), "the scratch is deleted all the same");

        BuildWarmup.Outcome none = BuildWarmup.run(o, () -> true);
        assertTrue(none.gaveWay() && none.published() == 0 && none.failure() == null, "work waiting at the start: " + none.describe());
        assertEquals(List.of(), leftovers(), "no scratch made");
    }

    @Test
    void aWarmUpThatCannotWriteItsScratchSaysSoAndThrowsNothing() throws Exception {
        Path notADirectory = Files.writeString(tmp.resolve("plain-file"), "x");
        DaemonOptions o = DaemonOptions.defaults(tmp.resolve("catalog")).withReplicaRoot(notADirectory.toUri());
        BuildWarmup.Outcome out = BuildWarmup.run(o);
        assertNotNull(out.failure());
        assertEquals(0, out.published());
        assertTrue(out.describe().contains("not warmed up") && out.describe().contains("first build"), out.describe());
        assertEquals("x", Files.readString(notADirectory), "nothing written over");
    }

    /** SIGTERM while the warm-up runs: the daemon still stops promptly, and its scratch is gone. */
    @Test
    void sigtermDuringTheWarmUpStopsTheDaemonAndRemovesTheScratch() throws Exception {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path log = tmp.resolve("daemon.log");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", cp,
                DaemonMain.class.getName(), "--db", tmp.resolve("db").toString(), "--poll", "200", "--warmup")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (leftovers().isEmpty() && p.isAlive() && System.nanoTime() < deadline) Thread.sleep(10);
            assertFalse(leftovers().isEmpty(), "the warm-up began: " + Files.readString(log));
            p.destroy();   // SIGTERM
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the daemon exits after SIGTERM: " + Files.readString(log));
            String out = Files.readString(log);
            assertTrue(out.contains("pdla daemon: stopped"), out);
            assertTrue(out.contains("build path warmed up"), "the warm-up ended before the loop: " + out);
            assertEquals(List.of(), leftovers(), "the scratch is deleted: " + out);
        } finally {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
