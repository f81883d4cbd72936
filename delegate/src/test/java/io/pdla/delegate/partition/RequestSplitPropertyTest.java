package io.pdla.delegate.partition;

import io.pdla.access.Extent;
import io.pdla.access.ExtentList;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestSplitPropertyTest {

    @Test
    void piecesReassembleTheRanksBufferByteForByteAndEachLiesInItsAggregatorsDomain() {
        Property.forAll(1500, (r, c) -> {
            PartitionRequest req = Property.request(r);
            if (req.emptyRegion()) return;
            ExtentList extents = randomRequest(r, req);
            byte[] file = fileContents(r, req.regionEnd());
            byte[] expected = pack(extents, file);
            for (PartitionMethod m : PartitionMethod.values()) {
                FileDomains d = FileDomains.partition(m, req);
                RequestSplit split = RequestSplit.of(extents, d);
                byte[] rebuilt = new byte[expected.length];
                boolean[] filled = new boolean[expected.length];
                long total = 0;
                for (int a = 0; a < req.aggregators(); a++) {
                    long[] t = split.piecesAsTriples(a);
                    assertEquals(3L * split.pieces(a), t.length, m + " triples of " + a);
                    long bytes = 0;
                    for (int i = 0; i < split.pieces(a); i++) {
                        long off = split.fileOffset(a, i), len = split.length(a, i), buf = split.bufferOffset(a, i);
                        assertEquals(off, t[3 * i]);
                        assertEquals(len, t[3 * i + 1]);
                        assertEquals(buf, t[3 * i + 2]);
                        assertTrue(len > 0, m + " empty piece");
                        assertEquals(a, d.owner(off), m + " piece [" + off + "+" + len + ") sent to " + a + " " + req);
                        assertTrue(d.runEnd(off) >= off + len, m + " piece [" + off + "+" + len + ") leaves domain " + a + " " + req);
                        for (int b = 0; b < len; b++) {
                            assertTrue(!filled[(int) buf + b], m + " buffer byte " + (buf + b) + " delivered twice");
                            filled[(int) buf + b] = true;
                            rebuilt[(int) buf + b] = file[(int) off + b];
                        }
                        bytes += len;
                    }
                    assertEquals(bytes, split.bytes(a), m + " bytes of " + a);
                    total += bytes;
                }
                assertEquals(extents.totalBytes(), total, m + " total");
                assertArrayEquals(expected, rebuilt, m + " reassembled buffer differs " + req);
            }
        });
    }

    @Test
    void piecesKeepBufferOrderWithinEachAggregator() {
        Property.forAll(500, (r, c) -> {
            PartitionRequest req = Property.request(r);
            if (req.emptyRegion()) return;
            ExtentList extents = randomRequest(r, req);
            PartitionMethod m = PartitionMethod.values()[r.nextInt(PartitionMethod.values().length)];
            RequestSplit split = RequestSplit.of(extents, FileDomains.partition(m, req));
            for (int a = 0; a < req.aggregators(); a++) {
                for (int i = 1; i < split.pieces(a); i++) {
                    assertTrue(split.bufferOffset(a, i) > split.bufferOffset(a, i - 1), m + " aggregator " + a + " piece " + i);
                }
            }
        });
    }

    @Test
    void anExtentOutsideTheRegionIsRefusedNamingIt() {
        PartitionRequest req = new PartitionRequest(100, 200, 10, 2, 2, 1);
        FileDomains d = FileDomains.partition(PartitionMethod.EVEN, req);
        ExtentList bad = ExtentList.builder().add(120, 10).add(190, 20).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RequestSplit.of(bad, d));
        assertTrue(e.getMessage().contains("extent 1") && e.getMessage().contains("[190, 210)"), e.getMessage());
    }

    @Test
    void splitAtStripesCutsOnlyAtStripeBoundariesAndKeepsEveryByteInOrder() {
        Property.forAll(1000, (r, c) -> {
            PartitionRequest req = Property.request(r);
            if (req.emptyRegion()) return;
            ExtentList extents = randomRequest(r, req);
            long str = req.stripeSize();
            List<Extent> cut = FileDomains.splitAtStripes(extents, str);
            byte[] file = fileContents(r, req.regionEnd());
            byte[] expected = pack(extents, file);
            byte[] got = new byte[expected.length];
            int at = 0;
            for (Extent e : cut) {
                assertTrue(e.length() > 0);
                assertEquals(e.offset() / str, (e.end() - 1) / str, e + " crosses a stripe boundary");
                for (long b = e.offset(); b < e.end(); b++) got[at++] = file[(int) b];
            }
            assertEquals(expected.length, at);
            assertArrayEquals(expected, got);
            long stripesTouched = 0;
            for (int i = 0; i < extents.size(); i++) {
                stripesTouched += (extents.offset(i) + extents.length(i) - 1) / str - extents.offset(i) / str + 1;
            }
            assertEquals(stripesTouched, cut.size(), "one piece per stripe an extent touches");
        });
    }

    /** A rank's request in buffer order: random order, overlaps, some extents spanning many stripes. */
    static ExtentList randomRequest(Random r, PartitionRequest req) {
        ExtentList.Builder b = ExtentList.builder();
        int n = 1 + r.nextInt(12);
        long len = req.regionLength();
        for (int i = 0; i < n; i++) {
            long off = req.regionStart() + (long) (r.nextDouble() * len);
            long max = req.regionEnd() - off;
            long l = r.nextInt(3) == 0 ? max : 1 + (long) (r.nextDouble() * Math.min(max, 3 * req.stripeSize()));
            b.add(off, Math.max(1, Math.min(max, l)));
        }
        return b.build();
    }

    static byte[] fileContents(Random r, long size) {
        byte[] f = new byte[(int) size];
        r.nextBytes(f);
        return f;
    }

    static byte[] pack(ExtentList extents, byte[] file) {
        byte[] out = new byte[(int) extents.totalBytes()];
        int at = 0;
        for (int i = 0; i < extents.size(); i++) {
            for (long b = extents.offset(i); b < extents.offset(i) + extents.length(i); b++) out[at++] = file[(int) b];
        }
        return out;
    }
}
