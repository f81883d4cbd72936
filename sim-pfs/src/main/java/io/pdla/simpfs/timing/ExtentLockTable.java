package io.pdla.simpfs.timing;

import java.util.Map;
import java.util.TreeMap;

/**
 * The extent locks one server manages for one data object, Lustre-style: a client needs a lock covering the
 * bytes it touches (shared for reads, exclusive for writes); a new lock is grown to the largest range that
 * touches no other lock, so a lone writer takes one lock for the whole object. A request that overlaps
 * another client's incompatible lock forces that lock to be revoked: one conflict.
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
        boolean stillOverlapped = false, keepBelow = false, keepAbove = false;
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
                keepBelow |= l.start < start;
                keepAbove |= l.end > end;
                it.remove();
            } else {
                stillOverlapped = true;
            }
        }
        if (stillOverlapped) return conflicts;
        Map.Entry<Long, Lock> before = locks.lowerEntry(start);
        Map.Entry<Long, Lock> after = locks.ceilingEntry(end);
        long grantStart = keepBelow ? start : before == null ? 0 : Math.min(start, before.getValue().end);
        long grantEnd = keepAbove ? end : after == null ? Long.MAX_VALUE : Math.max(end, after.getKey());
        locks.put(grantStart, new Lock(grantStart, grantEnd, owner, mode));
        return conflicts;
    }
}
