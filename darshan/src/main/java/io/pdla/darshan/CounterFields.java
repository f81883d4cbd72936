package io.pdla.darshan;

/**
 * The counters of one record as darshan-parser names and prints them: name and value text, in its order. The one
 * place that turns records into named values: {@link ParserReport} prints them as lines, and reports show them as
 * tables without printing and re-reading text.
 */
public final class CounterFields {
    /** Receives one counter. */
    @FunctionalInterface
    public interface Sink {
        void counter(String name, String value);
    }

    private static final String[] FLAGS = {"stale,", "prefrd,", "prefwr,", "offline,", "init,", "nosync,", "extension,",
        "parity,", "compress,", "partial,", "nocompr,", "neg,"};

    private CounterFields() {
    }

    /**
     * The counters of {@code record} (a {@link CounterRecord}, {@link LustreRecord} or {@link HeatmapRecord} of module
     * {@code id}; other kinds have none). A counter record's layout is {@code id}'s.
     */
    public static void of(ModuleId id, Object record, Sink out) {
        if (record instanceof CounterRecord c) {
            counters(id, c, out);
        } else if (record instanceof LustreRecord l) {
            lustre(l, out);
        } else if (record instanceof HeatmapRecord hm) {
            out.counter("HEATMAP_F_BIN_WIDTH_SECONDS", CFormat.f6(hm.binWidthSeconds()));
            for (int i = 0; i < hm.readBins().length; i++) out.counter("HEATMAP_READ_BIN_" + i, Long.toString(hm.readBins()[i]));
            for (int i = 0; i < hm.writeBins().length; i++) out.counter("HEATMAP_WRITE_BIN_" + i, Long.toString(hm.writeBins()[i]));
        }
    }

    /** The record id of any record a module holds (0 for an unknown kind). */
    public static long recordId(Object record) {
        if (record instanceof CounterRecord c) return c.id();
        if (record instanceof LustreRecord l) return l.id();
        if (record instanceof HeatmapRecord hm) return hm.id();
        if (record instanceof DxtRecord d) return d.id();
        return 0;
    }

    /** The rank of any record a module holds (0 for an unknown kind). */
    public static long rank(Object record) {
        if (record instanceof CounterRecord c) return c.rank();
        if (record instanceof LustreRecord l) return l.rank();
        if (record instanceof HeatmapRecord hm) return hm.rank();
        if (record instanceof DxtRecord d) return d.rank();
        return 0;
    }

    /** The file name darshan-parser prints for a record of {@code id}: the log's name, else what darshan-util puts there. */
    public static String fileName(DarshanLog log, ModuleId id, long recordId) {
        String name = log.name(recordId);
        return name != null ? name : id == ModuleId.BGQ ? "darshan-bgq-record" : "(null)";
    }

    private static void counters(ModuleId id, CounterRecord c, Sink out) {
        CounterLayout l = CounterLayout.of(id);
        if (l == null) throw new IllegalArgumentException(id + " has no counter records");
        // darshan-parser prints record ids unsigned, and RENAMED_FROM holds one
        int renamedFrom = id == ModuleId.POSIX ? PosixCounter.POSIX_RENAMED_FROM.ordinal() : -1;
        for (int i = 0; i < c.counters().length; i++) {
            out.counter(l.intNames[i], i == renamedFrom ? CFormat.u64(c.counters()[i]) : Long.toString(c.counters()[i]));
        }
        for (int i = 0; i < c.fcounters().length; i++) out.counter(l.floatNames[i], CFormat.f6(c.fcounters()[i]));
        if (id == ModuleId.H5D) out.counter("H5D_FILE_REC_ID", CFormat.u64(c.fileRecordId()));
        if (id == ModuleId.PNETCDF_VAR) out.counter("PNETCDF_VAR_FILE_REC_ID", CFormat.u64(c.fileRecordId()));
    }

    private static void lustre(LustreRecord l, Sink out) {
        out.counter("LUSTRE_NUM_COMPONENTS", Long.toString(l.components().length));
        out.counter("LUSTRE_NUM_STRIPES", Long.toString(l.ostIds().length));
        int ost = 0;
        for (int i = 0; i < l.components().length; i++) {
            long[] c = l.components()[i];
            String p = "LUSTRE_COMP" + (i + 1);
            for (int j = 0; j < 7; j++) {
                String name = p + DarshanText.LUSTRE_COMP[j].substring("LUSTRE_COMP".length());
                String v;
                if (j == LustreRecord.STRIPE_PATTERN) {
                    v = switch ((int) c[j]) { case 0 -> "raid0"; case 2 -> "mdt"; case 4 -> "raid0,overstriped"; case 8 -> "foreign"; default -> "N/A"; };
                    if (c[j] != (int) c[j]) v = "N/A";
                } else if (j == LustreRecord.FLAGS) {
                    StringBuilder s = new StringBuilder();
                    for (int k = 0; k < FLAGS.length; k++) if ((c[j] & (1L << k)) != 0) s.append(FLAGS[k]);
                    v = s.length() > 0 ? s.substring(0, s.length() - 1) : "0";
                    if (c[j] == -1) v = "N/A";
                } else {
                    v = Long.toString(c[j]);
                }
                out.counter(name, v);
            }
            out.counter(p + "_POOL_NAME", l.poolNames()[i].isEmpty() ? "N/A" : l.poolNames()[i]);
            for (int j = 0; j < c[LustreRecord.STRIPE_COUNT] && ost < l.ostIds().length; j++) {
                out.counter(p + "_OST_ID_" + j, Long.toString(l.ostIds()[ost++]));
            }
        }
    }

    /**
     * One darshan-parser counter line: {@code <module>\t<rank>\t<record id>\t<counter>\t<value>} and {@code tail}
     * ({@code \t<file name>\t<mount pt>\t<fs type>\n}).
     */
    public static void line(StringBuilder out, String module, long rank, long recordId, String counter, String value, String tail) {
        out.append(module).append('\t').append(rank).append('\t').append(CFormat.u64(recordId)).append('\t')
                .append(counter).append('\t').append(value).append(tail);
    }

    /** A floating-point counter as darshan-parser prints it (C's {@code %f}). */
    public static String f6(double v) {
        return CFormat.f6(v);
    }
}
