package io.pdla.redirect;

import io.pdla.access.ExtentList;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.RandomGeometries;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The interval index answers exactly what a linear scan over every geometry answers, through changes. */
class GeometryIndexPropertyTest {
    record Item(int id, Geometry geometry) {
    }

    private static Item randomItem(Random r, int id) {
        Geometry.Spec s = RandomGeometries.randomSpec(r);
        long shift = r.nextInt(4) == 0 ? 0 : r.nextInt(2_000);   // some interleave at the start, others lie apart
        return new Item(id, Geometry.of(new Geometry.Spec(s.start() + shift, s.segOffsets(), s.segLengths(), s.strides(), s.counts(), s.totalBytes())));
    }

    private static Set<Integer> linearTouching(List<Item> items, ExtentList ex) {
        Set<Integer> out = new HashSet<>();
        for (Item it : items) {
            for (int i = 0; i < ex.size(); i++) {
                if (it.geometry().overlaps(ex.offset(i), ex.length(i))) {
                    out.add(it.id());
                    break;
                }
            }
        }
        return out;
    }

    private static Set<Integer> linearCoveringFrom(List<Item> items, long offset) {
        Set<Integer> out = new HashSet<>();
        for (Item it : items) if (it.geometry().nextCoveredOffset(offset) >= 0) out.add(it.id());
        return out;
    }

    @Test
    void answersLikeTheLinearScanThroughPutsAndRemoves() {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        for (int round = 0; round < 200; round++) {
            GeometryIndex<Integer, Item> index = new GeometryIndex<>(Item::id, Item::geometry);
            List<Item> items = new ArrayList<>();
            int n = r.nextInt(60);
            for (int i = 0; i < n; i++) {
                Item it = randomItem(r, i);
                items.add(it);
                index.put(it);
            }
            for (int q = 0; q < 30; q++) {
                if (!items.isEmpty() && r.nextInt(5) == 0) {
                    Item gone = items.remove(r.nextInt(items.size()));
                    assertEquals(gone, index.remove(gone.id()), "seed " + seed);
                }
                ExtentList.Builder b = ExtentList.builder(3);
                long at = r.nextInt(3_000);
                for (int e = 0, m = 1 + r.nextInt(3); e < m; e++) {
                    long len = 1 + r.nextInt(r.nextBoolean() ? 8 : 400);
                    b.add(at, len);
                    at += len + r.nextInt(50);
                }
                ExtentList ex = b.build();
                assertEquals(linearTouching(items, ex), index.touching(ex), "seed " + seed + ", round " + round + ", query " + ex);
                long cut = r.nextInt(3_500);
                assertEquals(linearCoveringFrom(items, cut), index.coveringFrom(cut), "seed " + seed + ", round " + round + ", cut " + cut);
            }
        }
    }

    @Test
    void aWriteAmongAThousandDisjointReplicasVisitsFewOfThem() {
        List<Item> items = new ArrayList<>();
        int[] checked = {0};
        GeometryIndex<Integer, Item> index = new GeometryIndex<>(Item::id, it -> {
            checked[0]++;
            return it.geometry();
        });
        for (int i = 0; i < 1000; i++) index.put(new Item(i, Geometry.strided(i * 1_048_576L, 4096, 16_384, 64)));
        index.touching(ExtentList.of(0, 1));   // builds the tree
        checked[0] = 0;
        long target = 1 + new Random().nextInt(998);
        Set<Integer> hit = index.touching(ExtentList.of(target * 1_048_576L + 16_384, 4096));
        assertEquals(Set.of((int) target), hit);
        assertTrue(checked[0] <= 4, "one write looked at " + checked[0] + " of 1000 geometries");
    }
}
