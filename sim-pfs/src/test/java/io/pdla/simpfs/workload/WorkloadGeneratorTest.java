package io.pdla.simpfs.workload;

import io.pdla.simpfs.config.ConfigException;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.ServerClass;
import io.pdla.simpfs.timing.Request;
import io.pdla.simpfs.timing.RequestStream;
import io.pdla.simpfs.timing.Workload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkloadGeneratorTest {
    private static final Layout L = Layout.oneDH(ServerClass.HDD, 64 << 10);

    private static List<long[]> drain(Workload w, int rank) {
        List<long[]> out = new ArrayList<>();
        RequestStream s = w.stream(rank);
        Request r = new Request();
        while (s.next(r)) {
            for (int i = 0; i < r.extents(); i++) out.add(new long[]{r.file(), r.offset(i), r.length(i), r.kind().ordinal()});
        }
        return out;
    }

    @Test
    void iorOffsetsFollowIorsFormula() {
        IorWorkload shared = new IorWorkload(4, 300, 100, 2, false, true, false, 1, L);
        List<long[]> r2 = drain(shared, 2);
        assertEquals(6, r2.size());
        // segment i, transfer j: i*ranks*b + r*b + j*t
        long[] expected = {600, 700, 800, 1800, 1900, 2000};
        for (int k = 0; k < 6; k++) {
            assertEquals(expected[k], r2.get(k)[1]);
            assertEquals(100, r2.get(k)[2]);
            assertEquals(Request.Kind.WRITE.ordinal(), r2.get(k)[3]);
        }
        IorWorkload fpp = new IorWorkload(4, 300, 100, 2, true, false, false, 1, L);
        assertEquals(4, fpp.files().size());
        List<long[]> f3 = drain(fpp, 3);
        assertEquals(3, f3.get(0)[0], "rank 3 uses its own file");
        assertEquals(List.of(0L, 100L, 200L, 300L, 400L, 500L), f3.stream().map(e -> e[1]).toList());
    }

    @Test
    void iorRandomOrderVisitsEveryTransferOnce() {
        IorWorkload z = new IorWorkload(2, 1000, 10, 3, false, false, true, 5, L);
        List<long[]> got = drain(z, 1);
        Set<Long> offsets = new HashSet<>();
        for (long[] e : got) offsets.add(e[1]);
        assertEquals(300, offsets.size());
        List<long[]> sequential = drain(new IorWorkload(2, 1000, 10, 3, false, false, false, 5, L), 1);
        Set<Long> seqOffsets = new HashSet<>();
        for (long[] e : sequential) seqOffsets.add(e[1]);
        assertEquals(seqOffsets, offsets);
        assertNotEquals(sequential.stream().map(e -> e[1]).toList(), got.stream().map(e -> e[1]).toList());
        assertEquals(got.stream().map(e -> e[1]).toList(), drain(z, 1).stream().map(e -> e[1]).toList(), "same seed, same order");
    }

    @Test
    void tileIoRanksReadTheirTilesRowsInOneCall() {
        // 2 x 2 tiles of 3 x 2 elements of 4 bytes: the array is 6 elements (24 bytes) wide.
        TileIoWorkload tiles = new TileIoWorkload(2, 2, 3, 2, 4, 0, 0, false, 1, L);
        assertEquals(4, tiles.ranks());
        RequestStream s = tiles.stream(3);
        Request r = new Request();
        assertTrue(s.next(r));
        assertEquals(2, r.extents());
        assertEquals((2 * 6 + 3) * 4, r.offset(0), "rank 3: tile (1,1), first row starts at row 2, column 3");
        assertEquals((3 * 6 + 3) * 4, r.offset(1));
        assertEquals(12, r.length(0));
        assertTrue(!s.next(r));
    }

    @Test
    void nestedStridedInterleavesRanksInsideAndSkipsGapsOutside() {
        NestedStridedWorkload n = NestedStridedWorkload.of(4, 100, 3, 2, false, L);
        List<Long> offsets = drain(n, 1).stream().map(e -> e[1]).toList();
        // inner stride 4*100, outer stride 2 * 400 * 3
        assertEquals(List.of(100L, 500L, 900L, 2500L, 2900L, 3300L), offsets);
        assertThrows(ConfigException.class, () -> new NestedStridedWorkload(4, 100, 300, 3, 10_000, 2, false, L));
    }

    @Test
    void randomWorkloadsAreSeededPerRank() {
        RandomWorkload w = new RandomWorkload(2, 1 << 20, 4096, 50, false, 9, L);
        List<Long> a = drain(w, 0).stream().map(e -> e[1]).toList();
        assertEquals(a, drain(w, 0).stream().map(e -> e[1]).toList());
        assertNotEquals(a, drain(w, 1).stream().map(e -> e[1]).toList());
        assertTrue(a.stream().allMatch(o -> o % 4096 == 0 && o + 4096 <= 1 << 20));
    }
}
