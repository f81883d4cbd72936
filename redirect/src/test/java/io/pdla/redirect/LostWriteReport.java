package io.pdla.redirect;

import io.pdla.pattern.Geometry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Why {@link KilledRankTest} found an acknowledged write missing: every missing one (not just the first), and for each
 * what the original and the replica hold there instead (the bytes of which BEGIN/ACK line, the round's starting bytes,
 * or neither), the replica file at the round's start and now, and the rank's standard error.
 */
final class LostWriteReport {
    private LostWriteReport() {
    }

    static String of(List<String> lines, KilledRankLog log, Map<Long, long[]> acks, byte[] model, byte[] before, byte[] original, byte[] replica,
                     Geometry g, java.net.URI replicaNow, String replicaAtStart, Path stderr) throws IOException {
        StringBuilder why = new StringBuilder();
        int missing = 0;
        for (Map.Entry<Long, long[]> a : acks.entrySet()) {
            int off = (int) (long) a.getKey(), len = (int) a.getValue()[0];
            long pos = g.positionOf(off);
            byte[] want = Arrays.copyOfRange(model, off, off + len);
            boolean inOriginal = Arrays.equals(want, Arrays.copyOfRange(original, off, off + len));
            boolean inReplica = pos >= 0 && pos + len <= replica.length && Arrays.equals(want, Arrays.copyOfRange(replica, (int) pos, (int) pos + len));
            if (inOriginal || inReplica) continue;
            missing++;
            why.append("\n missing ").append(off).append(" (pos ").append(pos).append("): original holds ")
                    .append(whose(lines, off, len, Arrays.copyOfRange(original, off, off + len), before));
            if (pos >= 0 && pos + len <= replica.length) {
                why.append(", replica holds ").append(whose(lines, off, len, Arrays.copyOfRange(replica, (int) pos, (int) pos + len), before));
            }
        }
        why.append("\n ").append(missing).append(" of ").append(acks.size()).append(" acknowledged offsets missing; lines ").append(lines.size())
                .append(", last: ").append(lines.isEmpty() ? "none" : lines.get(lines.size() - 1))
                .append(", in flight: ").append(log.inFlight()).append(", other lines: ").append(log.other());
        why.append("\n replica at the round's start ").append(replicaAtStart).append(", now ").append(replicaNow);
        try {
            why.append(" inode ").append(Files.getAttribute(Path.of(replicaNow), "unix:ino"));
        } catch (IOException | RuntimeException e) {
            why.append(" (").append(e).append(")");
        }
        why.append("\n rank's stderr: ").append(Files.exists(stderr) ? Files.readString(stderr) : "none");
        return why.toString();
    }

    /** Which line's bytes {@code got} are ("line N ACK ..."), or the round's starting bytes, or neither. */
    private static String whose(List<String> lines, int off, int len, byte[] got, byte[] before) {
        StringBuilder s = new StringBuilder();
        int n = 0;
        for (String l : lines) {
            n++;
            String[] w = l.split(" ");
            if (w.length == 4 && (w[0].equals("ACK") || w[0].equals("BEGIN")) && Long.parseLong(w[1]) == off) {
                byte[] d = new byte[len];
                new Random(Long.parseLong(w[3])).nextBytes(d);
                if (Arrays.equals(d, got)) s.append(s.length() == 0 ? "" : " = ").append("line ").append(n).append(" '").append(l).append("'");
            }
        }
        if (Arrays.equals(got, Arrays.copyOfRange(before, off, off + len))) s.append(s.length() == 0 ? "" : " = ").append("the round's starting bytes");
        return s.length() == 0 ? "bytes of none of its writes" : s.toString();
    }
}
