package io.pdla.redirect;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a killed {@link WritingRank} wrote to its protocol file: the last acknowledged write at each offset ({@code ACK}
 * lines), the write in flight at the kill (a {@code BEGIN} line its {@code ACK} did not follow: it may have landed
 * wholly, partly or not at all), and any other line. The in-flight write is read from the rank's own lines, never
 * derived from how many arrived; and from a file, not the rank's standard output, whose last lines
 * {@code Process.destroyForcibly} discarded (see {@link WritingRank}: the misses of seeds 2325552590712,
 * 38056411380927 and 38578272263248, each the offset after the last ACK the test had read). A last line the kill cut
 * short (no newline) was not written: a torn ACK leaves its BEGIN in flight.
 *
 * @param acked     offset -> {length, seed} of the last acknowledged write there, in first-acknowledged order
 * @param inFlight  the offset of the write in flight at the kill, or null when the rank died between two writes
 * @param ackLines  acknowledged writes (every ACK line, repeats included)
 * @param other     lines that are not the rank's protocol, kept for messages
 * @param lines     every complete line, in order
 */
record KilledRankLog(Map<Long, long[]> acked, Long inFlight, int ackLines, List<String> other, List<String> lines) {
    /** The protocol file's complete lines (an absent file: none yet). */
    static KilledRankLog read(java.nio.file.Path protocol) throws java.io.IOException {
        if (!java.nio.file.Files.exists(protocol)) return parse(List.of());
        String text = java.nio.file.Files.readString(protocol);
        String complete = text.substring(0, text.lastIndexOf('\n') + 1);
        return parse(complete.isEmpty() ? List.of() : List.of(complete.split("\n")));
    }

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
        return new KilledRankLog(acked, inFlight, acks, other, List.copyOf(lines));
    }
}
