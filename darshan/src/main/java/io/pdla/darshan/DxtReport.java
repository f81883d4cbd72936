package io.pdla.darshan;

import java.time.ZoneId;
import java.util.HashMap;
import java.util.Map;

/**
 * The text darshan-dxt-parser (darshan-util 3.5.0) prints for a log, byte for byte: the header darshan-parser
 * prints too, then every DXT_POSIX and DXT_MPIIO record's segments (writes, then reads, each in call order), with
 * the Lustre OSTs a POSIX segment touched when the log has the file's LUSTRE record. Messages darshan-dxt-parser
 * sends to stderr go to {@code err}.
 */
public final class DxtReport {
    static final String COLUMNS = "# Module    Rank  Wt/Rd  Segment          Offset          Length    Start(s)      End(s)";

    private final StringBuilder out;
    private final StringBuilder err;
    private final ZoneId zone;

    public DxtReport(StringBuilder out, StringBuilder err, ZoneId zone) {
        this.out = out;
        this.err = err;
        this.zone = zone;
    }

    /**
     * Prints the report; false when a LUSTRE or DXT region stopped short (darshan-dxt-parser's "failed to parse"
     * and exit status 255: the text holds what came before).
     *
     * @throws ParserReport.IncompleteLogException a DXT or LUSTRE module is partial and {@code showIncomplete} is off
     */
    public boolean print(DarshanLog log, boolean showIncomplete) throws ParserReport.IncompleteLogException {
        DarshanHeader h = log.header();
        new ParserReport(out, err, zone).header(log);
        if (!h.modules()[ModuleId.DXT_POSIX.ordinal()].present() && !h.modules()[ModuleId.DXT_MPIIO.ordinal()].present()) {
            out.append("\n# no DXT module data available for this Darshan log.\n");
            return true;
        }
        // LUSTRE comes before DXT_POSIX in module order; darshan-util keys its records by id, the last one read winning
        Map<Long, LustreRecord> lustre = new HashMap<>();
        for (ModuleData m : log.modules()) {
            if (!h.modules()[m.index()].present()) continue;
            if (ParserReport.skipsUnreadable(m, "Warning", err)) continue;
            ModuleId id = m.module();
            boolean dxt = id == ModuleId.DXT_POSIX || id == ModuleId.DXT_MPIIO;
            if (dxt) {
                out.append("\n# ***************************************************\n");
                out.append("# ").append(id.label()).append(" module data\n");
                out.append("# ***************************************************\n");
            } else if (id != ModuleId.LUSTRE) {
                continue;
            }
            if (m.partial()) incomplete(id, showIncomplete);
            if (m.note() != null) {
                err.append("Error: ").append(m.note()).append('\n');
                err.append("Error: failed to parse ").append(id.label()).append(" module record.\n");
                return false;
            }
            int[] versions = h.moduleVersions();
            for (Object r : m.records()) {
                if (r instanceof LustreRecord l) {
                    lustre.put(l.id(), l);
                } else if (r instanceof DxtRecord d) {
                    String name = log.name(d.id());
                    Mount mnt = log.job().mountOf(name);
                    record(id, d, versions[m.index()], name, mnt, id == ModuleId.DXT_POSIX ? lustre.get(d.id()) : null);
                }
            }
            if (m.error() != null) {
                err.append("Error: failed to parse ").append(id.label()).append(" module record.\n");
                return false;
            }
        }
        return true;
    }

    private void incomplete(ModuleId id, boolean showIncomplete) throws ParserReport.IncompleteLogException {
        // darshan-dxt-parser's own wording, "unecessary" included (darshan-parser's says "unnecessary")
        String text = ParserReport.incompleteText(id.label(), "unecessary");
        if (showIncomplete) {
            out.append("\n# *WARNING*: ").append(text);
            return;
        }
        err.append("\n# *ERROR*: ").append(text).append(ParserReport.showIncompleteHint("darshan-dxt-parser"));
        throw ParserReport.incomplete(id);
    }

    /** One file's trace on one rank, as {@code dxt_log_print_posix_file} and {@code dxt_log_print_mpiio_file} print it. */
    void record(ModuleId id, DxtRecord d, int version, String name, Mount mnt, LustreRecord lustre) {
        boolean posix = id == ModuleId.DXT_POSIX;
        // segments carry a thread id from DXT_POSIX version 2 and DXT_MPIIO version 3 on
        boolean threads = posix ? version > 1 : version > 2;
        int n = d.segmentCount();
        out.append("\n# DXT, file_id: ").append(CFormat.u64(d.id())).append(", file_name: ").append(name == null ? "(null)" : name).append('\n');
        out.append("# DXT, rank: ").append(d.rank()).append(", hostname: ").append(d.hostname()).append('\n');
        out.append("# DXT, number of threads: ").append(threads && n > 0 ? threadCount(d.threadIds(), n) : 1).append('\n');
        out.append("# DXT, write_count: ").append(d.writeCount()).append(", read_count: ").append(d.readCount()).append('\n');
        out.append("# DXT, mnt_pt: ").append(mnt == null ? "UNKNOWN" : mnt.path()).append(", fs_type: ")
                .append(mnt == null ? "UNKNOWN" : mnt.type()).append('\n');
        if (lustre != null) stripeComponents(lustre);
        out.append(COLUMNS);
        if (lustre != null) out.append("   [OST]");
        out.append("   Pthread-ID\n");
        String module = posix ? "X_POSIX" : "X_MPIIO";
        for (int i = 0; i < n; i++) {
            boolean write = d.isWrite(i);
            pad(module, 8);
            pad(Long.toString(d.rank()), 8);
            pad(write ? "write" : "read", 7);
            pad(Integer.toString(write ? i : i - d.writeCount()), 9);
            pad(Long.toString(d.offsets()[i]), 16);
            pad(Long.toString(d.lengths()[i]), 16);
            pad(CFormat.f(d.starts()[i], 4), 12);
            pad(CFormat.f(d.ends()[i], 4), 12);
            out.append("  ");
            if (lustre != null) osts(lustre, d.offsets()[i], d.lengths()[i]);
            if (threads) {
                out.append(' ');
                pad(Long.toUnsignedString(d.threadIds()[i]), 4);
                out.append('\n');
            } else {
                out.append(" N/A\n");
            }
        }
    }

    /** How many distinct thread ids (compared unsigned, as darshan-util's {@code unsigned long}) the segments hold. */
    static int threadCount(long[] ids, int n) {
        long[] sorted = java.util.Arrays.copyOf(ids, n);
        for (int i = 0; i < n; i++) sorted[i] ^= Long.MIN_VALUE;   // signed order of the flipped values is unsigned order
        java.util.Arrays.sort(sorted);
        int distinct = 1;
        for (int i = 1; i < n; i++) if (sorted[i] != sorted[i - 1]) distinct++;
        return distinct;
    }

    private void stripeComponents(LustreRecord l) {
        out.append("# DXT, Lustre stripe components:\n");
        int ost = 0;
        for (int i = 0; i < l.components().length; i++) {
            long[] c = l.components()[i];
            out.append("#\t[Component ").append(i + 1).append("] stripe_ext: ").append(c[LustreRecord.EXT_START]).append(" - ");
            out.append(c[LustreRecord.EXT_END] == -1 ? "EOF" : Long.toString(c[LustreRecord.EXT_END])).append(", ");
            out.append("stripe_size: ").append(c[LustreRecord.STRIPE_SIZE]).append(", ");
            out.append("stripe_count: ").append(c[LustreRecord.STRIPE_COUNT]).append(", ");
            out.append("OSTs:");
            for (long j = 0; j < c[LustreRecord.STRIPE_COUNT] && ost < l.ostIds().length; j++, ost++) out.append(' ').append(l.ostIds()[ost]);
            out.append('\n');
        }
    }

    /**
     * The OSTs holding {@code [offset, offset + length)}, each stripe's in turn, at most one round of each component's
     * stripes, as darshan-util walks them. Where darshan-util would divide by a zero stripe size or read past the
     * record's OST list (a damaged record), the walk stops instead.
     */
    private void osts(LustreRecord l, long offset, long length) {
        long cur = offset;
        int compOsts = 0, printed = 0;
        long[][] comps = l.components();
        for (long[] c : comps) {
            long size = c[LustreRecord.STRIPE_SIZE], count = c[LustreRecord.STRIPE_COUNT];
            long start = c[LustreRecord.EXT_START], end = c[LustreRecord.EXT_END];
            if (count == 0) continue;   // data on the metadata target: no OSTs, and its stripes are not counted
            if (size > 0 && count > 0 && cur >= start && (cur < end || end == -1)) {
                long inComp = cur - start;
                long idx = (inComp / size) % count;
                while (cur < offset + length && (cur < end || end == -1)) {
                    long at = compOsts + idx;
                    if (at < 0 || at >= l.ostIds().length) break;
                    out.append(" [").append(l.ostIds()[(int) at]).append(']');
                    idx = idx == count - 1 ? 0 : idx + 1;
                    inComp = (inComp / size + 1) * size;
                    cur = start + inComp;
                    if (++printed >= count) {
                        cur = end == -1 ? offset + length : end;
                        break;
                    }
                }
            }
            compOsts += (int) Math.min(Integer.MAX_VALUE, Math.max(0, count));
        }
        if (comps.length > 0) out.append("  ");
    }

    private void pad(String s, int width) {
        for (int i = s.length(); i < width; i++) out.append(' ');
        out.append(s);
    }
}
