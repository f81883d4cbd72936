package io.pdla.redirect;

import io.pdla.catalog.ReplicaEntry;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.Fixture;
import io.pdla.replicator.daemon.DaemonReport;
import io.pdla.replicator.daemon.RankMajorGroups;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * IOR's strided shape read back through one replica that holds the ranks' data rank after rank: every rank gets its
 * bytes from its own region of it, its read-ahead never reads into the next rank's region, and a read that spans
 * several ranks' blocks of the original comes back whole from their regions.
 */
class RankMajorRedirectTest {
    static final int NP = 4, REQ = 16 << 10, PER_RANK = 64;
    /** Each rank's region of the combined replica: 1 MiB, two read-ahead windows of 512 KiB. */
    static final long REGION = (long) REQ * PER_RANK;
    static final int READ_AHEAD = 1 << 20;

    @TempDir
    Path tmp;

    @Test
    void theCombinedReplicaIsPricedAsRedirectReadsIt() {
        assertEquals(RedirectConfig.DEFAULT_READAHEAD / 2, RankMajorGroups.SERVED_WINDOW_BYTES,
                "the placement prices requests of the size redirect's default read-ahead reads in");
    }

    @Test
    void eachRankIsServedFromItsRegionAndItsReadAheadStaysThere() throws Exception {
        Path file = tmp.resolve("ior.dat");
        byte[] data = Fixture.writeRandomFile(file, NP * REQ * PER_RANK, 41);
        try (Fixture fx = new Fixture(tmp)) {
            fx.replication.daemon.gatherRanksFor(0);
            for (int r = 0; r < NP; r++) {
                fx.replication.queue.offer(KeyedPattern.of(new PatternKey(new AppIdentity("ior", NP), r, file.toUri()),
                        Geometry.strided((long) r * REQ, REQ, (long) NP * REQ, PER_RANK)));
            }
            DaemonReport rep = fx.replication.daemon.runOnce();
            assertEquals(1, rep.published(), rep.lines().toString());
            ReplicaEntry e = fx.catalog.transact(t -> t.entry(PatternKey.global(new AppIdentity("ior", NP), file.toUri()))).orElseThrow();
            assertEquals(NP, e.pattern().geometry().groups());
            RedirectConfig cfg = RedirectConfig.from(Map.of()).withCatalog(fx.db).withReadAhead(READ_AHEAD);
            for (int rank = 0; rank < NP; rank++) {
                RedirectInterceptor ri = new RedirectInterceptor(cfg);
                try (ChainFile f = new ChainFile(file.toUri(), "ior", NP, rank, Map.of(), List.of(ri))) {
                    for (int i = 0; i < PER_RANK; i++) {
                        long at = (long) i * NP * REQ + (long) rank * REQ;
                        assertArrayEquals(Arrays.copyOfRange(data, (int) at, (int) at + REQ), f.read(at, REQ), "rank " + rank + " request " + i);
                    }
                    RedirectStats s = ri.stats();
                    assertEquals(PER_RANK, s.readsFromReplica.get(), "rank " + rank + ": " + s);
                    // its region in two windows: the fill at its first read and one prefetch; none into the next rank's region
                    assertEquals(2, s.readAheadFills.get(), "rank " + rank + ": " + s);
                    // one read across all ranks' first blocks: four pieces, each from another region
                    assertArrayEquals(Arrays.copyOfRange(data, 0, NP * REQ), f.read(0, NP * REQ), "rank " + rank + ": a read across the ranks' blocks");
                }
            }
        }
    }
}
