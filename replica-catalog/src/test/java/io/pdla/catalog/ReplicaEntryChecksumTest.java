package io.pdla.catalog;

import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.storage.Layout;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A catalog row that took damage is refused, never decoded into another valid entry: the CI run that found this
 * flipped one bit of a pattern's geometry, and the redirect then served other bytes of the replica.
 */
class ReplicaEntryChecksumTest {
    private static final FileIdentity ID = new FileIdentity(200_000, 1_234_567_890L, "ino:42:ctime:99");

    private static ReplicaEntry entry() {
        KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("app", 1), 0, URI.create("file:///data/r.dat")),
                Geometry.strided(0, 4096, 8192, 16));
        return new ReplicaEntry(p, URI.create("file:///data/.pdla-replicas/x/replica-1"), Layout.DEFAULT, "", "HServers", 0.5, 0,
                ReplicaState.VALID, ID, 3, 1_700_000_000_000L);
    }

    @Test
    void everySingleBitFlipIsRefusedAndNamed() {
        byte[] row = entry().toBytes();
        assertEquals(entry(), ReplicaEntry.fromBytes(row));
        for (int bit = 0; bit < row.length * 8; bit++) {
            byte[] bad = row.clone();
            bad[bit / 8] ^= (byte) (1 << (bit % 8));
            int at = bit;
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReplicaEntry.fromBytes(bad), () -> "bit " + at);
            assertTrue(e.getMessage().startsWith("corrupt catalog entry"), e.getMessage());
        }
    }

    @Test
    void randomDamageNeverDecodesIntoAnotherServableEntry() {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        byte[] row = entry().toBytes();
        for (int i = 0; i < 20_000; i++) {
            byte[] bad = row.clone();
            int n = 1 + r.nextInt(4);
            for (int k = 0; k < n; k++) bad[r.nextInt(bad.length)] ^= (byte) (1 + r.nextInt(255));
            if (Arrays.equals(bad, row)) continue;
            try {
                ReplicaEntry e = ReplicaEntry.fromBytes(bad);
                assertFalse(e.identity().vouches(ID), "seed " + seed + ": damaged row decoded into a servable entry " + e);
            } catch (IllegalArgumentException refused) {
                // the expected outcome
            }
        }
    }

    @Test
    void rowsWrittenBeforeTheChecksumStillReadButVouchForNothing() {
        byte[] v4 = entry().toBytes();
        byte[] v3 = Arrays.copyOf(v4, v4.length - 4);
        ByteBuffer.wrap(v3).putInt(0, 3);
        ReplicaEntry read = ReplicaEntry.fromBytes(v3);
        assertEquals(entry().pattern(), read.pattern());
        assertEquals(entry().replica(), read.replica());
        assertTrue(entry().identity().vouches(ID), "sanity: the current row vouches");
        assertFalse(read.identity().vouches(ID), "nothing proves a version 3 row undamaged, so its replica is rebuilt before it serves");
        IllegalArgumentException padded = assertThrows(IllegalArgumentException.class, () -> ReplicaEntry.fromBytes(Arrays.copyOf(v3, v3.length + 4)));
        assertTrue(padded.getMessage().contains("4 bytes after"), padded.getMessage());
    }
}
