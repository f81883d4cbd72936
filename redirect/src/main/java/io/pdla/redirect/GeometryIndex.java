package io.pdla.redirect;

import io.pdla.access.ExtentList;
import io.pdla.pattern.Geometry;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Values with a pattern geometry (a file's replica entries), found by the byte ranges they touch: an interval
 * tree over each geometry's bounding range [{@link Geometry#lowOffset()}, + {@link Geometry#span()}), kept as
 * an array sorted by start in which each middle element holds the largest end of its subtree. A query costs
 * O(log n + candidates); each candidate is then checked exactly ({@link Geometry#overlaps}). Candidates are the
 * values whose bounding ranges meet the query: patterns that interleave over the same region (the ranks'
 * strided patterns of one file) all meet it, disjoint ones (segmented patterns) do not. The tree is rebuilt
 * at the next query after a change; changes (claims) are rare next to queries (writes).
 */
public final class GeometryIndex<K, V> {
    private final Function<V, K> key;
    private final Function<V, Geometry> geometry;
    private final Map<K, V> values = new LinkedHashMap<>();
    private List<V> sorted;
    private long[] starts, ends, maxEnd;

    public GeometryIndex(Function<V, K> key, Function<V, Geometry> geometry) {
        this.key = key;
        this.geometry = geometry;
    }

    public synchronized void put(V v) {
        values.put(key.apply(v), v);
        sorted = null;
    }

    public synchronized V get(K k) {
        return values.get(k);
    }

    public synchronized V remove(K k) {
        V v = values.remove(k);
        if (v != null) sorted = null;
        return v;
    }

    public synchronized void removeIf(Predicate<K> which) {
        if (values.keySet().removeIf(which)) sorted = null;
    }

    public synchronized void clear() {
        values.clear();
        sorted = null;
    }

    public synchronized Collection<V> values() {
        return List.copyOf(values.values());
    }

    /** Keys of the values that touch a byte of {@code ex}. */
    public synchronized Set<K> touching(ExtentList ex) {
        Set<K> out = new HashSet<>();
        if (values.isEmpty()) return out;
        build();
        for (int i = 0; i < ex.size(); i++) {
            long off = ex.offset(i), len = ex.length(i);
            if (len > 0) collect(0, sorted.size(), off, off + len, v -> geometry.apply(v).overlaps(off, len), out);
        }
        return out;
    }

    /** Keys of the values that cover a byte at or after {@code offset} (what a truncation to it cuts). */
    public synchronized Set<K> coveringFrom(long offset) {
        Set<K> out = new HashSet<>();
        if (values.isEmpty()) return out;
        build();
        collect(0, sorted.size(), offset, Long.MAX_VALUE, v -> geometry.apply(v).nextCoveredOffset(offset) >= 0, out);
        return out;
    }

    /** Adds the keys of the values in sorted[lo, hi) whose bounding range meets [from, to) and that {@code exact} accepts. */
    private void collect(int lo, int hi, long from, long to, Predicate<V> exact, Set<K> out) {
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (maxEnd[mid] <= from) return;                 // nothing in this subtree reaches the query
            collect(lo, mid, from, to, exact, out);
            if (starts[mid] >= to) return;                    // mid and everything right of it start after the query
            if (ends[mid] > from && exact.test(sorted.get(mid))) out.add(key.apply(sorted.get(mid)));
            lo = mid + 1;
        }
    }

    private void build() {
        if (sorted != null) return;
        List<V> list = new ArrayList<>(values.values());
        list.sort(Comparator.comparingLong(v -> geometry.apply(v).lowOffset()));
        int n = list.size();
        starts = new long[n];
        ends = new long[n];
        maxEnd = new long[n];
        for (int i = 0; i < n; i++) {
            Geometry g = geometry.apply(list.get(i));
            starts[i] = g.lowOffset();
            ends[i] = saturatedAdd(g.lowOffset(), g.span());
        }
        Arrays.fill(maxEnd, Long.MIN_VALUE);
        augment(0, n);
        sorted = list;
    }

    /** Fills maxEnd at the middle of [lo, hi) with the largest end in [lo, hi); returns it. */
    private long augment(int lo, int hi) {
        if (lo >= hi) return Long.MIN_VALUE;
        int mid = (lo + hi) >>> 1;
        long m = Math.max(ends[mid], Math.max(augment(lo, mid), augment(mid + 1, hi)));
        maxEnd[mid] = m;
        return m;
    }

    private static long saturatedAdd(long a, long b) {
        long s = a + b;
        return ((a ^ s) & (b ^ s)) < 0 ? Long.MAX_VALUE : s;
    }
}
