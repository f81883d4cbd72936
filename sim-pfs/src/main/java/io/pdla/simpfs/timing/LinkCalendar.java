package io.pdla.simpfs.timing;

import java.util.Arrays;

/**
 * The booked transfers of one network link: disjoint busy intervals sorted by start. A transfer needs its
 * server's and its client node's link at once; it takes the earliest interval free on both, so a transfer
 * that waits for one link does not hold the other idle (no head-of-line convoy), and transfers booked when
 * they become ready are served in that order wherever they compete for the same free time.
 */
final class LinkCalendar {
    private double[] start = new double[16], end = new double[16];
    private int first, size;

    /** Drops intervals over before {@code t} (bookings are made in non-decreasing event time). */
    void prune(double t) {
        while (size > 0 && end[first] <= t) {
            first++;
            size--;
        }
        if (size == 0) first = 0;
    }

    /** The earliest time at or after {@code from} at which this link is free for {@code d} seconds. */
    double firstFit(double from, double d) {
        double at = from;
        for (int i = first, n = first + size; i < n; i++) {
            if (end[i] <= at) continue;
            if (start[i] >= at + d) break;
            at = end[i];
        }
        return at;
    }

    /** The earliest start at or after {@code from} free on both links for {@code d} seconds. */
    static double common(LinkCalendar a, LinkCalendar b, double from, double d) {
        double at = from;
        while (true) {
            double x = a.firstFit(at, d);
            double y = b.firstFit(x, d);
            if (y == x) return x;
            at = y;
        }
    }

    void book(double s, double e) {
        if (e <= s) return;
        if (first + size == start.length) {
            if (first > 0) {
                System.arraycopy(start, first, start, 0, size);
                System.arraycopy(end, first, end, 0, size);
                first = 0;
            } else {
                start = Arrays.copyOf(start, start.length * 2);
                end = Arrays.copyOf(end, end.length * 2);
            }
        }
        int i = first + size;
        while (i > first && start[i - 1] > s) {
            start[i] = start[i - 1];
            end[i] = end[i - 1];
            i--;
        }
        start[i] = s;
        end[i] = e;
        size++;
    }

    /** When the link's last booking ends (at least {@code t}). */
    double freeAfter(double t) {
        return size == 0 ? t : Math.max(t, end[first + size - 1]);
    }
}
