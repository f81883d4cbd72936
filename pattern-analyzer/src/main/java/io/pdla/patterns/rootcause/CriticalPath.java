package io.pdla.patterns.rootcause;

import java.util.List;

/**
 * Result of the sweep line.
 *
 * @param shares       the critical files, each with its exclusive interval, in time order
 * @param seconds      time with any I/O activity (the sum of the shares)
 * @param firstStart   first start of any file (Darshan-style timing begins here)
 * @param lastEnd      last end of any file
 */
public record CriticalPath(List<Share> shares, double seconds, double firstStart, double lastEnd) {
    public CriticalPath {
        shares = List.copyOf(shares);
    }

    public double span() {
        return lastEnd - firstStart;
    }
}
