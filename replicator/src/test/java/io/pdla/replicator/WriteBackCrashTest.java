package io.pdla.replicator;

import io.pdla.catalog.Catalog;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.daemon.DaemonMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DIRTY replicas hold writes their originals lack. A real daemon process writing them back is halted (as by
 * SIGKILL) after a random number of copied bytes, again and again; after every crash each replica is either
 * still DIRTY with its bytes intact, or VALID with the original holding them, so no acknowledged write is ever
 * lost; a final clean run leaves every original holding every write and every replica VALID.
 */
class WriteBackCrashTest {
    @TempDir
    Path tmp;

    @Test
    void aDaemonKilledWhileWritingBackNeverLosesTheReplicasWrites() throws Exception {
        long seed = Long.getLong("pdla.crash.seed", System.nanoTime());
        System.out.println("WriteBackCrashTest seed=" + seed);
        Random rnd = new Random(seed);
        Map<Path, byte[]> expected = new HashMap<>();
        List<KeyedPattern> patterns = new ArrayList<>();
        int size = 4 << 20;
        try (Fixture fx = new Fixture(tmp)) {
            for (int i = 0; i < 3; i++) {
                Path f = tmp.resolve("orig" + i + ".dat");
                expected.put(f, Fixture.writeRandomFile(f, size, seed + i));
                for (int r = 0; r < 2; r++) {
                    KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("app", 2), r, f.toUri()), Geometry.strided(r * 65536L, 65536, 131072, 32));
                    patterns.add(p);
                    fx.replication.queue.offer(p);
                }
            }
            fx.replication.daemon.runOnce();
        }
        Path db = tmp.resolve("catalog");
        int kills = Integer.getInteger("pdla.crash.kills", Boolean.getBoolean("pdla.longSoak") ? 100 : 8);
        int halted = 0;
        for (int k = 0; k < kills; k++) {
            // between daemon runs, more writes through the shim go into the replicas that were written back
            long dirtyBytes = dirtyTheValidReplicas(db, rnd, expected);
            Process p = startDaemon(db, 1 + (long) rnd.nextInt((int) dirtyBytes));
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "daemon finishes or halts");
            if (p.exitValue() == 137) halted++;
            checkNothingLost(db, expected, "seed " + seed + " after crash " + k);
        }
        assertTrue(halted >= kills / 2, "most runs must be halted mid-copy, were " + halted + " of " + kills);
        Process last = startDaemon(db, -1);
        assertTrue(last.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, last.exitValue(), "final daemon run");
        checkNothingLost(db, expected, "seed " + seed + " after the final run");
        try (Catalog c = Catalog.open(db)) {
            for (KeyedPattern p : patterns) {
                assertEquals(ReplicaState.VALID, c.transact(t -> t.entry(p.key())).orElseThrow().state(), "written back: " + p.key().id());
            }
            for (Path f : expected.keySet()) assertTrue(c.transact(t -> t.writers(f.toUri())).isEmpty(), "no write session left on " + f);
        }
        for (Map.Entry<Path, byte[]> e : expected.entrySet()) {
            assertArrayEquals(e.getValue(), Files.readAllBytes(e.getKey()), "the original " + e.getKey() + " holds every write");
        }
    }

    /** Writes new bytes into every VALID replica and marks it DIRTY, as the shim does; returns the DIRTY bytes in all. */
    private static long dirtyTheValidReplicas(Path db, Random rnd, Map<Path, byte[]> expected) throws Exception {
        try (Catalog c = Catalog.open(db)) {
            List<ReplicaEntry> entries = c.transact(t -> {
                List<ReplicaEntry> l = new ArrayList<>();
                t.forEachEntry(l::add, k -> { });
                return l;
            });
            long dirty = 0;
            for (ReplicaEntry e : entries) {
                dirty += e.pattern().totalBytes();
                if (e.state() != ReplicaState.VALID) continue;
                byte[] fresh = new byte[(int) e.pattern().totalBytes()];
                rnd.nextBytes(fresh);
                c.transact(t -> {
                    t.put(e.withState(ReplicaState.DIRTY));   // durably before the bytes land, as a claim does
                    return null;
                });
                Files.write(Path.of(e.replica()), fresh);
                byte[] want = expected.get(Path.of(e.key().file()));
                ByteBuffer src = ByteBuffer.wrap(fresh);
                e.pattern().geometry().forEachExtent((o, l) -> src.get(want, (int) o, (int) l));
            }
            return dirty;
        }
    }

    /** Each replica is DIRTY with its bytes, or VALID with the original holding them: the writes exist somewhere. */
    private static void checkNothingLost(Path db, Map<Path, byte[]> expected, String where) throws Exception {
        try (Catalog c = Catalog.open(db)) {
            List<ReplicaEntry> entries = c.transact(t -> {
                List<ReplicaEntry> l = new ArrayList<>();
                t.forEachEntry(l::add, k -> { throw new AssertionError(where + ": undecodable catalog row"); });
                return l;
            });
            assertEquals(6, entries.size(), where);
            for (ReplicaEntry e : entries) {
                byte[] want = Fixture.patternBytes(e.pattern(), expected.get(Path.of(e.key().file())));
                assertNotEquals(ReplicaState.STALE, e.state(), where);
                assertArrayEquals(want, Files.readAllBytes(Path.of(e.replica())), where + ": replica of " + e.key().id() + " keeps the writes");
                if (e.state() == ReplicaState.VALID) {
                    byte[] original = Files.readAllBytes(Path.of(e.key().file()));
                    assertArrayEquals(want, Fixture.patternBytes(e.pattern(), original), where + ": VALID only once the original has them");
                }
            }
        }
    }

    private Process startDaemon(Path db, long haltAfter) throws Exception {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        if (haltAfter >= 0) cmd.add("-Dpdla.fault.writeBackHaltAfterBytes=" + haltAfter);
        cmd.addAll(List.of("-cp", cp, DaemonMain.class.getName(), "--db", db.toString(), "--once"));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        return pb.start();
    }
}
