package io.pdla.redirect;

import io.pdla.access.ExtentList;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.Fixture;
import io.pdla.replicator.daemon.DaemonReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Run 1 writes a shared file, IOR-style (4 ranks, each its own region, 16 KiB requests every 32 KiB); replicas
 * are built for each rank's strided pattern; run 2 reads the same pattern through the redirect chain and
 * gets exactly run 1's bytes, all served by replicas (counted).
 */
class EndToEndPosixTest {
    static final int NP = 4, REQ = 16 << 10, STRIDE = 2 * REQ, PER_RANK = 64;
    static final long REGION = (long) STRIDE * PER_RANK;

    @TempDir
    Path tmp;

    @Test
    void run2ReadsRun1sBytesFromReplicas() throws Exception {
        for (long readAhead : new long[]{0, 1 << 20}) runLoop(readAhead);
    }

    private void runLoop(long readAhead) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("ra" + readAhead));
        Path file = dir.resolve("ior.dat");
        Map<String, String> hints = Map.of(RedirectConfig.HINT_READAHEAD, Long.toString(readAhead));
        try (Fixture fx = new Fixture(dir)) {
            RedirectConfig cfg = RedirectConfig.from(Map.of()).withCatalog(fx.db).withReadAhead(readAhead);
            byte[][] written = new byte[NP][];
            // run 1: every rank writes its strided requests (the file grows to NP regions)
            for (int rank = 0; rank < NP; rank++) {
                RedirectInterceptor ri = new RedirectInterceptor(cfg);
                try (ChainFile f = new ChainFile(file.toUri(), "ior", NP, rank, hints, List.of(ri))) {
                    Random rnd = new Random(rank);
                    written[rank] = new byte[REQ * PER_RANK];
                    rnd.nextBytes(written[rank]);
                    for (int i = 0; i < PER_RANK; i++) {
                        byte[] chunk = java.util.Arrays.copyOfRange(written[rank], i * REQ, (i + 1) * REQ);
                        f.write(rank * REGION + (long) i * STRIDE, chunk);
                    }
                }
            }
            // analysis result: one local pattern per rank
            for (int rank = 0; rank < NP; rank++) {
                fx.replication.queue.offer(KeyedPattern.of(new PatternKey(new AppIdentity("ior", NP), rank, file.toUri()), Geometry.strided(rank * REGION, REQ, STRIDE, PER_RANK)));
            }
            DaemonReport rep = fx.replication.daemon.runOnce();
            assertEquals(NP, rep.published(), rep.lines().toString());
            // run 2: read the same pattern back through redirect
            long fromReplica = 0;
            for (int rank = 0; rank < NP; rank++) {
                RedirectInterceptor ri = new RedirectInterceptor(cfg);
                try (ChainFile f = new ChainFile(file.toUri(), "ior", NP, rank, hints, List.of(ri))) {
                    for (int i = 0; i < PER_RANK; i++) {
                        byte[] got = f.read(rank * REGION + (long) i * STRIDE, REQ);
                        assertArrayEquals(java.util.Arrays.copyOfRange(written[rank], i * REQ, (i + 1) * REQ), got, "rank " + rank + " request " + i);
                    }
                    // a request straddling the pattern's edge: half in the pattern, half in the gap
                    byte[] straddle = f.read(rank * REGION + REQ / 2, REQ);
                    byte[] plain = Files.readAllBytes(file);
                    assertArrayEquals(java.util.Arrays.copyOfRange(plain, (int) (rank * REGION + REQ / 2), (int) (rank * REGION + REQ / 2 + REQ)), straddle);
                    // a run departing from the pattern (another rank's region) falls back to the original
                    int other = (rank + 1) % NP;
                    assertArrayEquals(java.util.Arrays.copyOfRange(written[other], 0, REQ), f.read(other * REGION, REQ));
                }
                RedirectStats s = ri.stats();
                assertEquals(PER_RANK, s.readsFromReplica.get(), "rank " + rank + ": " + s);
                assertEquals(1, s.readsMixed.get(), "the straddling request: " + s);
                assertEquals(1, s.readsFromOriginal.get(), "the departing request: " + s);
                if (readAhead > 0) assertTrue(s.readAheadHits.get() >= PER_RANK - 2 * (PER_RANK * REQ / (1 << 20) + 1), "read-ahead served the small requests: " + s);
                fromReplica += s.bytesFromReplica.get();
            }
            assertEquals((long) NP * (PER_RANK * REQ + REQ / 2), fromReplica);
        }
    }

    @Test
    void vectoredReadsAcrossSeveralReplicasAndTheOriginalComeBackInBufferOrder() throws Exception {
        Path file = tmp.resolve("v.dat");
        byte[] data = Fixture.writeRandomFile(file, 200_000, 11);
        try (Fixture fx = new Fixture(tmp)) {
            fx.replication.queue.offer(KeyedPattern.of(new PatternKey(new AppIdentity("v", 2), 1, file.toUri()), Geometry.strided(1000, 700, 2000, 40)));
            fx.replication.queue.offer(KeyedPattern.of(new PatternKey(new AppIdentity("v", 2), -1, file.toUri()), Geometry.strided(150_000, 50, -100, 30)));
            assertEquals(2, fx.replication.daemon.runOnce().published());
            RedirectInterceptor ri = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db).withReadAhead(8192));
            try (ChainFile f = new ChainFile(file.toUri(), "v", 2, 1, Map.of(), List.of(ri))) {
                ExtentList ex = ExtentList.builder().add(146_000, 5000).add(500, 4000).add(199_000, 3000).add(30_000, 10).build();
                byte[] got = f.read(ex);
                // the last extent but one runs past the end of the file: the read stops there, as a plain read does
                int expectedLen = 5000 + 4000 + 1000;
                assertEquals(expectedLen, got.length);
                byte[] want = new byte[expectedLen];
                System.arraycopy(data, 146_000, want, 0, 5000);
                System.arraycopy(data, 500, want, 5000, 4000);
                System.arraycopy(data, 199_000, want, 9000, 1000);
                assertArrayEquals(want, got);
                assertTrue(ri.stats().bytesFromReplica.get() > 0, ri.stats().toString());
            }
        }
    }
}
