package io.pdla.replicator;

import io.pdla.catalog.Catalog;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.daemon.DaemonMain;
import io.pdla.replicator.queue.CatalogPatternQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The daemon runs as a real child process and is killed with SIGKILL at random moments while it builds and
 * publishes replicas (its copy rate is limited so a build takes long enough to be hit). After every kill the
 * catalog only ever points at complete replicas with the right bytes, and every file it does not point at is
 * named in the journal; after a final clean run no leftovers remain.
 */
class CrashSafetyTest {
    @TempDir
    Path tmp;

    @Test
    void killedDaemonNeverLeavesAPartialReplicaVisibleNorLeftoversAfterRestart() throws Exception {
        long seed = Long.getLong("pdla.crash.seed", System.nanoTime());
        System.out.println("CrashSafetyTest seed=" + seed);
        Random rnd = new Random(seed);
        Path db = tmp.resolve("catalog");
        List<Path> files = new ArrayList<>();
        List<KeyedPattern> patterns = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Path f = tmp.resolve("orig" + i + ".dat");
            Fixture.writeRandomFile(f, 1 << 20, seed + i);
            files.add(f);
            for (int r = 0; r < 2; r++) {
                patterns.add(KeyedPattern.of(new PatternKey(new AppIdentity("app", 2), r, f.toUri()), Geometry.strided(r * 16384L, 16384, 32768, 32)));
            }
        }
        try (Catalog c = Catalog.open(db)) {
            CatalogPatternQueue q = new CatalogPatternQueue(c);
            for (KeyedPattern p : patterns) q.offer(p);
        }
        // issue 18: at least 20 kills in CI, 200 in the long run (-Dpdla.longSoak)
        int kills = Integer.getInteger("pdla.crash.kills", Boolean.getBoolean("pdla.longSoak") ? 200 : 20);
        int killedWhileWorking = 0;
        for (int k = 0; k < kills; k++) {
            Process p = startDaemon(db);
            Thread.sleep(150 + rnd.nextInt(1200));
            boolean wasAlive = p.isAlive();
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
            if (wasAlive) killedWhileWorking++;
            String where = "seed " + seed + " after kill " + k;
            checkOnlyCompleteReplicasAreVisible(db, where);
            // change an original behind the shim's back so there is always something to rebuild
            Path f = files.get(rnd.nextInt(files.size()));
            byte[] patch = new byte[64];
            rnd.nextBytes(patch);
            Fixture.overwrite(f, rnd.nextInt((1 << 20) - 64), patch);
        }
        assertTrue(killedWhileWorking >= kills / 2, "most kills must hit a running daemon, were " + killedWhileWorking + " of " + kills);
        System.out.println("CrashSafetyTest: " + kills + " SIGKILLs, " + killedWhileWorking + " of them while the daemon was working; seed=" + seed);
        Process last = startDaemon(db);
        assertTrue(last.waitFor(120, TimeUnit.SECONDS), "final daemon run finishes");
        String out = new String(last.getInputStream().readAllBytes());
        assertEquals(0, last.exitValue(), "final daemon run: " + out);
        checkOnlyCompleteReplicasAreVisible(db, "seed " + seed + " after the final run");
        try (Catalog c = Catalog.open(db)) {
            assertTrue(c.transact(t -> t.journalRows()).isEmpty(), "journal is empty after a clean run");
            assertTrue(new CatalogPatternQueue(c).pending().isEmpty(), "queue drained: " + out);
            Set<Path> referenced = new HashSet<>();
            List<ReplicaEntry> entries = entries(c);
            for (ReplicaEntry e : entries) referenced.add(Path.of(e.replica()));
            assertEquals(patterns.size(), entries.size(), "one replica per pattern: " + out);
            try (Stream<Path> s = Files.walk(tmp.resolve(".pdla-replicas"))) {
                Set<Path> present = s.filter(Files::isRegularFile).collect(Collectors.toSet());
                assertEquals(referenced, present, "no leftovers: only replicas the catalog references remain");
            }
        }
    }

    private Process startDaemon(Path db) throws Exception {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", cp, DaemonMain.class.getName(), "--db", db.toString(), "--once", "--chunk", "65536", "--rate", "3000000");
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.PIPE);
        Process p = pb.start();
        // drain output so the child never blocks on a full pipe
        Thread drain = new Thread(() -> {
            try {
                p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
            } catch (java.io.IOException ignored) {
                // the child was killed
            }
        });
        drain.setDaemon(true);
        if (!Boolean.getBoolean("pdla.crash.keepOutput")) drain.start();
        return p;
    }

    private static List<ReplicaEntry> entries(Catalog c) throws Exception {
        return c.transact(t -> {
            List<ReplicaEntry> l = new ArrayList<>();
            t.forEachEntry(l::add, k -> { throw new AssertionError("undecodable catalog row after a crash"); });
            return l;
        });
    }

    /** Every catalog entry points at a complete replica with the original's bytes; other files are journaled. */
    private static void checkOnlyCompleteReplicasAreVisible(Path db, String where) throws Exception {
        try (Catalog c = Catalog.open(db)) {
            Set<Path> referenced = new HashSet<>();
            for (ReplicaEntry e : entries(c)) {
                Path r = Path.of(e.replica());
                referenced.add(r);
                assertTrue(Files.exists(r), where + ": catalog references missing replica " + r);
                assertEquals(ReplicaState.VALID, e.state(), where);
                byte[] original = Files.readAllBytes(Path.of(e.key().file()));
                boolean current = Files.size(Path.of(e.key().file())) == e.identity().size()
                        && Files.getLastModifiedTime(Path.of(e.key().file())).to(TimeUnit.NANOSECONDS) == e.identity().modifiedNanos();
                if (current) {
                    assertArrayEquals(Fixture.patternBytes(e.pattern(), original), Files.readAllBytes(r), where + ": replica " + r + " is complete and right");
                } else {
                    // the original was changed behind our back since: the entry is unusable (identity differs); size must still be whole
                    assertEquals(e.pattern().totalBytes(), Files.size(r), where + ": replica " + r + " is whole");
                }
            }
            Set<URI> journaled = new HashSet<>();
            for (Map.Entry<String, List<URI>> row : c.transact(t -> t.journalRows()).entrySet()) journaled.addAll(row.getValue());
            Path root = db.getParent().resolve(".pdla-replicas");
            if (!Files.exists(root)) return;
            try (Stream<Path> s = Files.walk(root)) {
                for (Path p : s.filter(Files::isRegularFile).collect(Collectors.toList())) {
                    if (referenced.contains(p)) continue;
                    assertTrue(journaled.contains(p.toUri()) || journaled.contains(URI.create("file:" + p)),
                            where + ": unreferenced file " + p + " is not in the journal, so nothing would clean it; journal " + journaled);
                }
            }
        }
    }
}
