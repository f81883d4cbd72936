package io.pdla.report;

import io.pdla.catalog.Catalog;
import io.pdla.catalog.FileIdentity;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.storage.Layout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Replica layouts and the redirected share, read from a real Berkeley DB replica catalog. */
class ReplicaViewTest {
    @TempDir
    Path dir;

    /** Replicas of the known job's strided file: ranks 0 and 1 VALID (1-DH and hybrid), rank 2 STALE, rank 3 none. */
    static Path catalog(Path dir, KnownJob k) throws java.io.IOException {
        URI file = k.job().uri(0);
        Path catalog = dir.resolve("catalog");
        Layout[] layouts = {Layout.oneDH(Layout.ServerClass.HDD, 64 * 1024), Layout.hybrid(64 * 1024, 32 * 1024), Layout.DEFAULT};
        ReplicaState[] states = {ReplicaState.VALID, ReplicaState.VALID, ReplicaState.STALE};
        try (Catalog c = Catalog.open(catalog)) {
            c.transact(t -> {
                for (int r = 0; r < 3; r++) {
                    KeyedPattern p = KeyedPattern.of(PatternKey.local(k.job().app(), r, file),
                            Geometry.strided((long) r * k.block, k.block, (long) k.ranks * k.block, k.segments));
                    t.put(new ReplicaEntry(p, URI.create("simpfs:///replicas/replica-" + r), layouts[r], "", "HServers", 0, 0, states[r],
                            new FileIdentity(4L << 20, 1, "stamp"), 1, System.currentTimeMillis()));
                }
                return null;
            });
        }
        return catalog;
    }

    @Test
    void shareCountsReadsInsideUsableReplicasAndLayoutsPutStripsOnTheirServers() throws Exception {
        KnownJob k = KnownJob.small();
        ReplicaView v = ReplicaView.fromCatalog(catalog(dir, k), k.job().app(), Map.of(0, k.job().uri(0), 1, k.job().uri(1)), k.all());
        long perRank = (long) k.segments * k.block;
        assertEquals(2 * perRank, v.replicaBytes(), "ranks 0 and 1 have usable replicas");
        assertEquals(2 * perRank, v.originalBytes(), "rank 2's replica is STALE, rank 3 has none; writes are not counted");
        assertEquals(3, v.layouts().size());
        ReplicaView.LayoutView oneDh = v.layouts().get(0);
        assertEquals(perRank / (64 * 1024), oneDh.pieces().size(), "1 MiB in 64 KiB strips");
        for (int i = 0; i < oneDh.pieces().size(); i++) {
            assertEquals(i % 8, oneDh.pieces().get(i).server(), "1-DH deals strips round-robin over the 8 HServers");
            assertEquals(64 * 1024, oneDh.pieces().get(i).length());
        }
        ReplicaView.LayoutView hybrid = v.layouts().get(1);
        assertTrue(hybrid.pieces().stream().anyMatch(p -> p.server() >= 8 && p.length() == 32 * 1024), "SSD strips of 32 KiB");
        assertTrue(hybrid.pieces().stream().anyMatch(p -> p.server() < 8 && p.length() == 64 * 1024), "HDD strips of 64 KiB");
        assertEquals(List.of("H0", "H1", "H2", "H3", "H4", "H5", "H6", "H7", "S0", "S1", "S2", "S3"), hybrid.servers());
    }

    @Test
    void replicasOutsideSimPfsHaveNoServerMap() {
        KnownJob k = KnownJob.small();
        KeyedPattern p = KeyedPattern.of(PatternKey.global(k.job().app(), k.job().uri(0)), Geometry.contiguous(0, 1 << 20));
        ReplicaEntry posix = new ReplicaEntry(p, dir.resolve("replica").toUri(), Layout.DEFAULT, "", "HServers", 0, 0, ReplicaState.VALID,
                new FileIdentity(1 << 20, 1, "stamp"), 1, 0);
        ReplicaView.LayoutView v = ReplicaView.layout(posix);
        assertTrue(v.pieces().isEmpty());
        assertTrue(v.layout().endsWith("on file: no server map"), v.layout());
    }

    @Test
    void anotherApplicationsReplicasServeNothing() throws Exception {
        KnownJob k = KnownJob.small();
        ReplicaView v = ReplicaView.fromCatalog(catalog(dir, k), new io.pdla.intercept.AppIdentity("other", 4),
                Map.of(0, k.job().uri(0)), k.all());
        assertEquals(0, v.replicaBytes());
        assertEquals((long) k.ranks * k.segments * k.block, v.originalBytes());
    }

    @Test
    void aMissingCatalogIsAClearError() {
        RuntimeException e = assertThrows(RuntimeException.class, () -> ReplicaView.fromCatalog(dir.resolve("none"),
                KnownJob.small().job().app(), Map.of(), List.of()));
        assertTrue(e.getMessage().contains("none"), e.getMessage());
    }
}
