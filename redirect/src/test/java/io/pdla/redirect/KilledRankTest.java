package io.pdla.redirect;

import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.Fixture;
import io.pdla.replicator.daemon.FileSync;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An application rank (a real child JVM writing through redirect into its own pattern's replica, which turns
 * DIRTY) is killed with SIGKILL in the middle of its writes. Afterwards every write it had completed (printed
 * after the call returned) is in the original or in a replica the catalog marks DIRTY; after {@code pdla sync}
 * ({@link FileSync}) the original itself holds them all. Rounds: 3 (20 with -Dpdla.longSoak), a new replica
 * built between rounds.
 */
class KilledRankTest {
    static final int SIZE = 1 << 20, BLOCK = 4096, STRIDE = 4 * BLOCK, COUNT = 64;

    @TempDir
    Path tmp;

    @Test
    void everyCompletedWriteOfAKilledRankSurvivesAndSyncBringsTheOriginalUpToDate() throws Exception {
        long seed = Long.getLong("pdla.kill.seed", System.nanoTime());
        System.out.println("KilledRankTest seed=" + seed);
        Random rnd = new Random(seed);
        Path file = tmp.resolve("data.bin");
        byte[] model = Fixture.writeRandomFile(file, SIZE, 1);
        KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("app", 1), 0, file.toUri()), Geometry.strided(0, BLOCK, STRIDE, COUNT));
        int rounds = Boolean.getBoolean("pdla.longSoak") ? 20 : 3;
        int acked = 0, dirtyRounds = 0;
        for (int round = 0; round < rounds; round++) {
            String replicaAtStart;
            try (Fixture fx = new Fixture(tmp)) {
                fx.replication.queue.offer(p);
                fx.replication.daemon.runOnce();     // writes back the last round's DIRTY replica, then (re)builds
                fx.replication.daemon.runOnce();
                ReplicaEntry built = fx.catalog.transact(t -> t.entry(p.key())).orElseThrow();
                assertEquals(ReplicaState.VALID, built.state(), fx.progress.toString());
                replicaAtStart = built.replica() + " inode " + Files.getAttribute(Path.of(built.replica()), "unix:ino");
            }
            byte[] before = model.clone();
            // the rank writes until killed; only what it acknowledged counts
            Path protocol = tmp.resolve("rank-" + round + ".log");
            String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", cp,
                    WritingRank.class.getName(), tmp.resolve("catalog").toString(), file.toString(), "" + BLOCK, "" + STRIDE, "" + COUNT, "" + round,
                    protocol.toString())
                    .redirectOutput(tmp.resolve("rank-" + round + ".out").toFile())
                    .redirectError(tmp.resolve("rank-" + round + ".err").toFile()).start();
            long deadline = System.currentTimeMillis() + 60_000;
            while (System.currentTimeMillis() < deadline && child.isAlive() && KilledRankLog.read(protocol).lines().size() < 10) Thread.sleep(20);
            Thread.sleep(rnd.nextInt(400));
            child.destroyForcibly();            // SIGKILL, in the middle of a write or between two
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            // the write in flight at the kill may have overwritten (wholly or in part) an earlier acknowledged one at
            // the same offset, which is what a killed writer may leave: the log leaves that offset to the sync below
            KilledRankLog log = KilledRankLog.read(protocol);
            List<String> lines = log.lines();
            Map<Long, long[]> acks = new LinkedHashMap<>(log.acked());
            assertTrue(acks.size() >= 5, "seed " + seed + " round " + round + ": the rank acknowledged writes before the kill: " + lines
                    + "\n" + Files.readString(tmp.resolve("rank-" + round + ".out")) + Files.readString(tmp.resolve("rank-" + round + ".err")));
            acked += log.ackLines();
            for (Map.Entry<Long, long[]> a : acks.entrySet()) {
                byte[] data = new byte[(int) a.getValue()[0]];
                new Random(a.getValue()[1]).nextBytes(data);
                System.arraycopy(data, 0, model, (int) (long) a.getKey(), data.length);
            }
            // a write that was in flight at the kill may or may not have landed: the model takes it from the file
            String where = "seed " + seed + " round " + round;
            try (Fixture fx = new Fixture(tmp)) {
                ReplicaEntry e = fx.catalog.transact(t -> t.entry(p.key())).orElseThrow();
                byte[] original = Files.readAllBytes(file);
                byte[] replica = Files.readAllBytes(Path.of(e.replica()));
                if (e.state() == ReplicaState.DIRTY) dirtyRounds++;
                for (Map.Entry<Long, long[]> a : acks.entrySet()) {
                    int off = (int) (long) a.getKey(), len = (int) a.getValue()[0];
                    byte[] want = Arrays.copyOfRange(model, off, off + len);
                    boolean inOriginal = Arrays.equals(want, Arrays.copyOfRange(original, off, off + len));
                    long pos = p.geometry().positionOf(off);
                    boolean inDirty = e.state() == ReplicaState.DIRTY && pos >= 0
                            && Arrays.equals(want, Arrays.copyOfRange(replica, (int) pos, (int) pos + len));
                    if (!(inOriginal || inDirty)) {
                        org.junit.jupiter.api.Assertions.fail(where + ": acknowledged write at " + off + " is neither in the original nor in a DIRTY replica ("
                                + e.state() + ")" + LostWriteReport.of(lines, log, acks, model, before, original, replica, p.geometry(), e.replica(), replicaAtStart,
                                tmp.resolve("rank-" + round + ".err")));
                    }
                }
                // pdla sync: ends the dead rank's session, writes the DIRTY replica back
                List<String> notes = new FileSync(fx.replication).sync(file.toUri());
                byte[] synced = Files.readAllBytes(file);
                for (Map.Entry<Long, long[]> a : acks.entrySet()) {
                    int off = (int) (long) a.getKey(), len = (int) a.getValue()[0];
                    assertArrayEquals(Arrays.copyOfRange(model, off, off + len), Arrays.copyOfRange(synced, off, off + len),
                            where + ": after pdla sync the original lacks the acknowledged write at " + off + ": " + notes);
                }
                model = synced;     // in-flight writes settle here
            }
        }
        assertTrue(dirtyRounds >= 1, "the rank's writes went into DIRTY replicas in at least one round");
        System.out.println("KilledRankTest: " + rounds + " ranks killed, " + acked + " acknowledged writes checked, " + dirtyRounds + " rounds with a DIRTY replica");
    }
}
