package io.pdla.bench.schemes;

import io.pdla.access.Extent;
import io.pdla.access.TraceRecord;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.patterns.TraceSource;
import io.pdla.pattern.Geometry;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The offset remapping sends exactly the bytes of each request to the right replica offsets. */
class RedirectorTest {

    /** A pattern's extents materialized: sorted by file offset, with the data position of each extent's first byte. */
    private record Materialized(long[] offsets, long[] lengths, long[] positions) {
        static Materialized of(Geometry g) {
            List<long[]> xs = new ArrayList<>();
            long pos = 0;
            for (Iterator<Extent> it = g.extents(); it.hasNext(); ) {
                Extent e = it.next();
                xs.add(new long[]{e.offset(), e.length(), pos});
                pos += e.length();
            }
            assertEquals(g.totalBytes(), pos, "extents of " + g + " add up to its bytes");
            xs.sort((a, b) -> Long.compare(a[0], b[0]));
            return new Materialized(xs.stream().mapToLong(x -> x[0]).toArray(), xs.stream().mapToLong(x -> x[1]).toArray(),
                    xs.stream().mapToLong(x -> x[2]).toArray());
        }

        /** Data position of byte {@code o}, or -1. */
        long position(long o) {
            int i = Arrays.binarySearch(offsets, o);
            if (i < 0) i = -i - 2;
            if (i < 0 || o >= offsets[i] + lengths[i]) return -1;
            return positions[i] + (o - offsets[i]);
        }
    }

    /** Checks every request of every rank, and every request shifted by half its size (straddling pattern edges). */
    private static int check(SchemeComparison.WorkloadSpec w) {
        TraceSource src = w.read();
        List<KeyedPattern> chosen = SchemeComparison.chosen(src);
        assertFalse(chosen.isEmpty(), "no pattern chosen for " + w.name());
        int ranks = src.ranks().size();
        SchemeComparison cmp = new SchemeComparison(new SchemeComparison.Settings(
                io.pdla.simpfs.config.SimPfsConfig.DEFAULT, io.pdla.costmodel.ModelParameters.defaults(), 0, 1L << 40));
        SchemeComparison.Plan plan = cmp.plan(Scheme.PD, chosen, src);
        Map<KeyedPattern, Materialized> mat = new java.util.HashMap<>();
        int checked = 0;
        for (int r = 0; r < ranks; r++) {
            for (Iterator<TraceRecord> it = src.records(r); it.hasNext(); ) {
                TraceRecord rec = it.next();
                List<Redirector.Replica> mine = plan.redirector().replicasOf(r, rec.fileId());
                for (long shift : new long[]{0, rec.length() / 2}) {
                    long off = rec.offset() + shift, len = rec.length();
                    List<Piece> pieces = plan.redirector().redirect(r, rec.fileId(), off, len);
                    long covered = 0;
                    long o = off;
                    for (Piece p : pieces) {
                        final long at = o;
                        if (p.fileIndex() == plan.redirector().originalIndex(rec.fileId())) {
                            assertEquals(o, p.offset(), "original piece keeps the offset");
                            for (Redirector.Replica c : mine) {
                                Materialized m = mat.computeIfAbsent(c.pattern(), k -> Materialized.of(k.geometry()));
                                for (long b = p.offset(); b < p.offset() + p.length(); b += Math.max(1, p.length() / 64)) {
                                    assertEquals(-1, m.position(b), "byte " + b + " of pattern " + c.pattern().key() + " left on the original");
                                }
                            }
                        } else {
                            Redirector.Replica t = mine.stream().filter(x -> x.fileIndex() == p.fileIndex()).findFirst()
                                    .orElseThrow(() -> new AssertionError("file " + p.fileIndex() + " at " + at + " is none of the rank's replicas"));
                            Materialized m = mat.computeIfAbsent(t.pattern(), k -> Materialized.of(k.geometry()));
                            // first, last and a middle byte of the piece land where the materialized pattern puts them
                            for (long k : new long[]{0, p.length() / 2, p.length() - 1}) {
                                assertEquals(m.position(o + k), p.offset() + k, "rank " + r + " byte " + (o + k) + " -> replica " + t.pattern().key());
                            }
                            assertTrue(p.offset() + p.length() <= t.pattern().totalBytes());
                        }
                        o += p.length();
                        covered += p.length();
                    }
                    assertEquals(len, covered, "pieces cover exactly the request's bytes");
                    checked++;
                }
            }
        }
        return checked;
    }

    @Test
    void iorFixedStrideRequestsLandOnTheirPositions() {
        assertTrue(check(SchemeWorkloads.iorFixedStride(8, 256 << 10, 512 << 10, 16)) >= 8 * 16 * 2);
    }

    @Test
    void tileIoLocalReplicasPerRank() {
        assertTrue(check(SchemeWorkloads.tileIo(4, 2, 64 << 10, 8)) >= 8 * 8 * 2);
    }

    @Test
    void nestedStridedAndMixedSizes() {
        assertTrue(check(SchemeWorkloads.pioNestedStrided(4, 16 << 10, 4, 3)) > 0);
        assertTrue(check(SchemeWorkloads.mixedSizes(4, 1 << 20, 16 << 10, 256 << 10)) > 0);
    }

    @Test
    void requestOutsideEveryPatternStaysOnTheOriginal() {
        AppIdentity app = new AppIdentity("red", 2);
        URI file = URI.create("file:///data/red.dat");
        KeyedPattern p = KeyedPattern.of(PatternKey.local(app, 0, file), Geometry.strided(0, 4096, 8192, 4));
        Redirector red = new Redirector(app, Map.of(0, file), Map.of(0, 0), List.of(new Redirector.Replica(p, 1)));
        // a gap byte range, a straddling request, and the byte past the pattern's end
        assertEquals(List.of(new Piece(0, 4096, 4096)), red.redirect(0, 0, 4096, 4096));
        assertEquals(List.of(new Piece(0, 6144, 2048), new Piece(1, 4096, 2048)), red.redirect(0, 0, 6144, 4096));
        assertEquals(List.of(new Piece(0, 32768, 100)), red.redirect(0, 0, 32768, 100));
        // another rank has no replica: everything on the original
        assertEquals(List.of(new Piece(0, 0, 4096)), red.redirect(1, 0, 0, 4096));
        assertThrows(IllegalArgumentException.class, () -> red.redirect(0, 7, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> red.redirect(0, 0, -1, 1));
    }
}
