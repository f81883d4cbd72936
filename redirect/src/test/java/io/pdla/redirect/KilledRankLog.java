package io.pdla.redirect;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a killed {@link WritingRank} printed: the last acknowledged write at each offset ({@code ACK} lines), the write
 * in flight at the kill (a {@code BEGIN} line its {@code ACK} did not follow: it may have landed wholly, partly or not
 * at all), and any other line. The in-flight write is read from the rank's own lines, not derived from how many lines
 * arrived: a line the JVM itself writes to stdout (HotSpot's warnings go there by default, e.g.
 * {@code [warning][os,thread] Failed to start thread}) shifted the count-derived guess by one write, and the write
 * really in flight was then checked as an acknowledged one (the one unexplained miss, seed 2325552590712).
 *
 * @param acked     offset -> {length, seed} of the last acknowledged write there, in first-acknowledged order
 * @param inFlight  the offset of the write in flight at the kill, or null when the rank died between two writes
 * @param ackLines  acknowledged writes (every ACK line, repeats included)
 * @param other     lines that are not the rank's protocol, kept for messages
 */
record KilledRankLog(Map<Long, long[]> acked, Long inFlight, int ackLines, List<String> other) {
    static KilledRankLog parse(List<String> lines) {
        Map<Long, long[]> acked = new LinkedHashMap<>();
        List<String> other = new ArrayList<>();
        String[] open = null; // the last BEGIN not yet acknowledged
        int acks = 0;
        for (String l : lines) {
            String[] w = l.split(" ");
            if (w.length != 4 || !(w[0].equals("BEGIN") || w[0].equals("ACK"))) {
                other.add(l);
                continue;
            }
            if (w[0].equals("BEGIN")) {
                open = w;
            } else {
                if (open == null || !open[1].equals(w[1]) || !open[3].equals(w[3])) {
                    throw new IllegalStateException("ACK without its BEGIN: " + l + " (open: " + (open == null ? "none" : String.join(" ", open)) + ")");
                }
                acked.put(Long.parseLong(w[1]), new long[]{Long.parseLong(w[2]), Long.parseLong(w[3])});
                acks++;
                open = null;
            }
        }
        Long inFlight = open == null ? null : Long.parseLong(open[1]);
        if (inFlight != null) acked.remove(inFlight); // settled by the sync: whatever part of it landed
        return new KilledRankLog(acked, inFlight, acks, other);
    }
}
