package io.pdla.redirect;

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
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A DIRTY replica is the authoritative copy of its whole region, so a write may turn only a replica that holds the
 * original's bytes into one. A VALID entry whose identity no longer vouches for its original (changed outside the
 * shim, or by a writer that registered no session) holds older bytes there: claimed DIRTY, its write-back copied
 * them over the newer ones (how SoakTest lost a session's writes on 2026-11-26). It is made STALE instead.
 */
class StaleReplicaClaimTest {
    @TempDir
    Path tmp;

    @Test
    void aReplicaWhoseOriginalChangedOutsideTheShimIsNeverMadeDirty() throws Exception {
        Path f = tmp.resolve("changed.dat");
        byte[] model = Fixture.writeRandomFile(f, 128 << 10, 5);
        try (Fixture fx = new Fixture(tmp)) {
            KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("app", 1), 0, f.toUri()), Geometry.strided(0, 4096, 8192, 16));
            fx.replication.queue.offer(p);
            assertEquals(1, fx.replication.daemon.runOnce().published());

            // changed outside pdla, in a block of the pattern the writer below leaves alone; the pause keeps the
            // change's time apart from the build's on file systems with coarse timestamps
            Thread.sleep(20);
            byte[] outside = filled(4096, (byte) 3);
            Fixture.overwrite(f, 16384, outside);
            System.arraycopy(outside, 0, model, 16384, outside.length);

            byte[] mine = filled(4096, (byte) 4);
            RedirectConfig cfg = RedirectConfig.from(Map.of()).withCatalog(fx.db);
            try (ChainFile cf = new ChainFile(f.toUri(), "app", 1, 0, Map.of(), List.of(new RedirectInterceptor(cfg)))) {
                cf.write(0, mine);
                assertArrayEquals(Arrays.copyOfRange(model, 16384, 16384 + 4096), cf.read(16384, 4096), "the outside change is read, not the replica's older bytes");
            }
            System.arraycopy(mine, 0, model, 0, mine.length);
            ReplicaState after = fx.catalog.transact(t -> t.entry(p.key())).orElseThrow().state();
            new FileSync(fx.replication).sync(f.toUri());

            assertArrayEquals(model, Files.readAllBytes(f), "the write-back copied the replica's older bytes over the outside change");
            assertEquals(ReplicaState.STALE, after, "the write made the replica STALE, not DIRTY");
        }
    }

    private static byte[] filled(int n, byte value) {
        byte[] b = new byte[n];
        Arrays.fill(b, value);
        return b;
    }
}
