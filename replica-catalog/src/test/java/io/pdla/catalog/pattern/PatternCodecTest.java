package io.pdla.catalog.pattern;

import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.pattern.RandomGeometries;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PatternCodecTest {
    private static final PatternKey KEY = new PatternKey(new AppIdentity("ior | -b 1m", 8), 3, URI.create("file:///data/a%20b.dat"));

    @Test
    void everyClosedFormRoundTripsThroughTheCatalogEncoding() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int i = 0; i < 2000; i++) {
            Geometry g = Geometry.of(RandomGeometries.randomSpec(r));
            KeyedPattern p = new KeyedPattern(i % 2 == 0 ? KEY : KEY.asGlobal(), g, 1 + r.nextInt(1000), 1 + (long) (r.nextDouble() * (g.totalBytes() - 1)));
            assertEquals(p, PatternCodec.decode(PatternCodec.encode(p)), "seed " + seed + " case " + i + " " + p);
        }
    }

    @Test
    void groupedClosedFormsRoundTripThroughTheCatalogEncoding() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int i = 0; i < 2000; i++) {
            Geometry g = Geometry.of(RandomGeometries.randomGroupedSpec(r));
            KeyedPattern p = new KeyedPattern(KEY.asGlobal(), g, 1 + r.nextInt(1000), g.groupBase().totalBytes());
            KeyedPattern back = PatternCodec.decode(PatternCodec.encode(p));
            assertEquals(p, back, "seed " + seed + " case " + i + " " + p);
            assertEquals(g.groups(), back.geometry().groups(), "seed " + seed + " case " + i);
            assertEquals(g.groupStride(), back.geometry().groupStride(), "seed " + seed + " case " + i);
        }
        Geometry ior = Geometry.grouped(Geometry.strided(0, 16384, 4 * 16384, 256), 4, 16384);
        Geometry back = PatternCodec.decode(PatternCodec.encode(KeyedPattern.of(KEY.asGlobal(), ior))).geometry();
        assertEquals(ior, back);
        assertEquals(256L * 16384, back.positionOf(16384));
    }

    /**
     * An ungrouped pattern is written as the version 1 record every earlier build reads (a process of an earlier version
     * sharing the catalog would skip, and its scanner delete, a row it cannot decode); only a grouped one needs version 2,
     * which is version 1 with the groups (int) and group stride (long) after the counts.
     */
    @Test
    void ungroupedPatternsStayVersionOneAndOnlyGroupedOnesAreVersionTwo() {
        int versionAt = 2 + PatternCodec.TYPE.length();
        KeyedPattern p = KeyedPattern.of(KEY, Geometry.strided(4096, 10, 20, 5));
        byte[] v1 = PatternCodec.encode(p);
        assertEquals(1, v1[versionAt + 3]);
        KeyedPattern back = PatternCodec.decode(v1);
        assertEquals(p, back);
        assertEquals(1, back.geometry().groups());
        // the same pattern as a version 2 record (groups 1, stride 0) reads the same
        byte[] v2 = Arrays.copyOf(v1, v1.length + Integer.BYTES + Long.BYTES);
        v2[versionAt + 3] = (byte) PatternCodec.VERSION;
        java.nio.ByteBuffer.wrap(v2).putInt(v1.length, 1).putLong(v1.length + Integer.BYTES, 0);
        assertEquals(p, PatternCodec.decode(v2));
        KeyedPattern grouped = new KeyedPattern(KEY.asGlobal(), Geometry.grouped(Geometry.strided(0, 16384, 4 * 16384, 8), 4, 16384), 32, 8 * 16384);
        byte[] g = PatternCodec.encode(grouped);
        assertEquals(PatternCodec.VERSION, g[versionAt + 3]);
        assertEquals(grouped, PatternCodec.decode(g));
        byte[] v3 = v1.clone();
        v3[versionAt + 3] = 3;
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PatternCodec.decode(v3)).getMessage().contains("unknown pattern encoding geometry v3"));
    }

    @Test
    void keysOfOneFileShareTheirPrefixAndRoundTrip() {
        byte[] k = PatternCodec.keyBytes(KEY);
        byte[] prefix = PatternCodec.filePrefix(KEY.file());
        assertTrue(Arrays.equals(prefix, Arrays.copyOf(k, prefix.length)));
        assertEquals(KEY, PatternCodec.keyFromBytes(k));
        assertEquals(KEY.asGlobal(), PatternCodec.keyFromBytes(PatternCodec.keyBytes(KEY.asGlobal())));
    }

    @Test
    void damagedOrForeignRecordsAreRefusedWithTheReason() {
        byte[] good = PatternCodec.encode(KeyedPattern.of(KEY, Geometry.strided(0, 10, 20, 5)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PatternCodec.decode(Arrays.copyOf(good, good.length - 3)));
        assertTrue(e.getMessage().contains("corrupt pattern record"), e.getMessage());
        byte[] longer = Arrays.copyOf(good, good.length + 2);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PatternCodec.decode(longer)).getMessage().contains("trailing"));
        byte[] foreign = good.clone();
        foreign[2] = 'X';   // the type tag
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PatternCodec.decode(foreign)).getMessage().contains("unknown pattern encoding"));
    }
}
