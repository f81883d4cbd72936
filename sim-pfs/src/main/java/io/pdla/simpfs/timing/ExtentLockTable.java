package io.pdla.simpfs.timing;

import java.util.Map;
import java.util.TreeMap;

/**
 * The extent locks one server manages for one data object, Lustre-style: a client needs a lock covering the
 * bytes it touches (shared for reads, exclusive for writes). A request that overlaps another client's
 * incompatible lock forces that lock to be revoked: one conflict (a client's write to a stripe whose lock
 * another client holds).
 *
 * <p>A new lock is grown upward, the way sequential access goes, to the next lock or the object's end, so a
 * lone writer takes one lock for the rest of the object. The grant is computed while a revoked lock still
 * stands, as Lustre's extent policy does, so where the revoked lock reached beyond the request the grant stops
 * at the request's end. Two writers streaming through disjoint halves of an object therefore conflict once and
 * then each keep their half, while writers whose stripes interleave revoke each other on every stripe (seed
 * 004's static-cyclic drawback). Growing downward as well would let such writers steal each other's range on
 * every request.
 * Locks never overlap here; a read that overlaps other clients' read locks is served under them.
 */
final class ExtentLockTable {
    private static final int READ = 0, WRITE = 1;

    private record Lock(long start, long end, int owner, int mode) {
    }

    private final TreeMap<Long, Lock> locks = new TreeMap<>();

    /** Takes the lock for {@code [start, end)} and returns the number of conflicting locks revoked. */
    int acquire(int owner, boolean write, long start, long end) {
        int mode = write ? WRITE : READ;
        int conflicts = 0;
        boolean stillOverlapped = false, keepAbove = false;
        Map.Entry<Long, Lock> floor = locks.floorEntry(start);
        Long from = floor != null && floor.getValue().end > start ? floor.getKey() : Long.valueOf(start);
        var overlapping = locks.subMap(from, true, end, false);
        var it = overlapping.values().iterator();
        while (it.hasNext()) {
            Lock l = it.next();
            if (l.owner == owner) {
                if (l.mode >= mode && l.start <= start && l.end >= end) return conflicts; // already covered
                it.remove();   // own lock upgraded or extended below: no conflict
            } else if (l.mode == WRITE || mode == WRITE) {
                conflicts++;
                keepAbove |= l.end > end;
                it.remove();
            } else {
                stillOverlapped = true;
            }
        }
        if (stillOverlapped) return conflicts;
        Map.Entry<Long, Lock> after = locks.ceilingEntry(end);
        long grantStart = start;
        long grantEnd = keepAbove ? end : after == null ? Long.MAX_VALUE : Math.max(end, after.getKey());
        locks.put(grantStart, new Lock(grantStart, grantEnd, owner, mode));
        return conflicts;
    }
}
