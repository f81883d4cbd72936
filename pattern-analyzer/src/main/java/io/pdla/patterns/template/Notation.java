package io.pdla.patterns.template;

import io.pdla.size.ByteSize;
import io.pdla.pattern.Geometry;

import java.util.Locale;
import java.util.StringJoiner;

/**
 * The compact I/O signature printed for a pattern, an IOSIG signature cut down to what PDLA uses:
 * <pre>
 *   {OP, @START, SIZE, SPATIAL, N req[, rep R][, TEMPORAL]}
 *   OP       READ | WRITE | READ/WRITE
 *   START    first byte of the pattern (the data order's byte 0)
 *   SIZE     the request size, or [s1,s2,...] when several sizes occur
 *   SPATIAL  CONTIG <bytes>                   one contiguous run
 *            STRIDE <s> x <c> [/ STRIDE ...]  stride levels, innermost first; c of the outermost may end
 *                                             in a partial block, marked "(partial)"
 *            CYCLE <m> seg <bytes> / STRIDE   a repeating size sequence: m segments per cycle
 *   rep R    the whole pattern was accessed R times in a row
 *   TEMPORAL fixed <mean interval> | irregular   (absent with fewer than 3 requests)
 * </pre>
 * Sizes are printed by core's {@link ByteSize#format}: binary units (KiB, MiB, GiB, TiB) when exact, else bytes ("B").
 * Example: {@code {READ, @0, 64KiB, STRIDE 1MiB x 512, 2048 req, rep 4, fixed 1.2ms}}.
 */
public final class Notation {
    private Notation() {
    }

    public static String local(LocalPattern p) {
        return format(p.ops(), p.geometry(), p.requestSizes(), p.requests(), p.repetitions(), p.temporal());
    }

    public static String format(OpMix ops, Geometry g, long[] sizes, long requests, int repetitions, Temporal t) {
        StringBuilder sb = new StringBuilder("{").append(ops.label()).append(", @").append(bytes(g.start())).append(", ");
        if (sizes.length == 1) {
            sb.append(bytes(sizes[0]));
        } else {
            StringJoiner j = new StringJoiner(",", "[", "]");
            for (long s : sizes) j.add(bytes(s));
            sb.append(j);
        }
        sb.append(", ").append(spatial(g)).append(", ").append(requests).append(" req");
        if (repetitions > 1) sb.append(", rep ").append(repetitions);
        if (t.kind() == Temporal.Kind.FIXED) sb.append(", fixed ").append(duration(t.meanIntervalNanos()));
        if (t.kind() == Temporal.Kind.IRREGULAR) sb.append(", irregular");
        return sb.append('}').toString();
    }

    public static String spatial(Geometry g) {
        boolean contiguous = g.segments() == 1 && (g.levels() == 0 || (g.levels() == 1 && g.stride(0) == g.segmentLength(0)));
        if (contiguous) return "CONTIG " + bytes(g.totalBytes());
        StringJoiner j = new StringJoiner(" / ");
        if (g.segments() > 1) j.add("CYCLE " + g.segments() + " seg " + bytes(g.cycleBytes()));
        for (int l = 0; l < g.levels(); l++) j.add("STRIDE " + bytes(g.stride(l)) + " x " + g.count(l));
        return j + (g.complete() ? "" : " (partial)");
    }

    public static String bytes(long b) {
        return ByteSize.format(b);
    }

    public static String duration(long nanos) {
        if (nanos >= 1_000_000_000L) return String.format(Locale.ROOT, "%.3gs", nanos / 1e9);
        if (nanos >= 1_000_000L) return String.format(Locale.ROOT, "%.3gms", nanos / 1e6);
        if (nanos >= 1_000L) return String.format(Locale.ROOT, "%.3gus", nanos / 1e3);
        return nanos + "ns";
    }
}
