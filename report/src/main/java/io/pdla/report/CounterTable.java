package io.pdla.report;

import io.pdla.darshan.CounterFields;
import io.pdla.darshan.CounterRecord;
import io.pdla.darshan.DarshanLog;
import io.pdla.darshan.ModuleData;
import io.pdla.darshan.ModuleId;
import io.pdla.darshan.PosixCounter;
import io.pdla.darshan.SizeBins;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counters folded by module and record, each counter named and valued as darshan-parser prints it. Built from
 * records ({@link #builder()}: a Darshan log's, or a trace directory's as the tracer reduces them), or read back
 * from a saved darshan-parser text ({@link #parse}: {@code <module>\t<rank>\t<record id>\t<counter>\t<value>\t<file>...},
 * {@code #} comments), such as a trace directory's {@code counters.txt}.
 */
public final class CounterTable {
    public record Counter(String name, String value) {
    }

    public record Record(String module, String rank, String id, String file, List<Counter> counters) {
    }

    private static final List<String> READ_BINS = SizeBins.names(PosixCounter.POSIX_SIZE_READ_0_100);
    private static final List<String> WRITE_BINS = SizeBins.names(PosixCounter.POSIX_SIZE_WRITE_0_100);

    /** module -> its records, in the order the text lists them. */
    private final Map<String, List<Record>> modules = new LinkedHashMap<>();

    private CounterTable() {
    }

    public static CounterTable parse(String text) {
        CounterTable t = new CounterTable();
        Map<String, Record> open = new LinkedHashMap<>();
        for (String line : text.split("\\R")) {
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] f = line.split("\t", -1);
            if (f.length < 5) continue;
            String key = f[0] + "\t" + f[1] + "\t" + f[2];
            Record r = open.get(key);
            if (r == null) {
                r = new Record(f[0], f[1], f[2], f.length > 5 ? f[5] : "", new ArrayList<>());
                open.put(key, r);
                t.modules.computeIfAbsent(f[0], m -> new ArrayList<>()).add(r);
            }
            r.counters().add(new Counter(f[3], f[4]));
        }
        return t;
    }

    /** Collects records one by one; the names and values come from the darshan module ({@link CounterFields}). */
    public static Builder builder() {
        return new Builder();
    }

    /** The counter records of a Darshan log, module by module, as darshan-parser lists them. */
    public static CounterTable of(DarshanLog log) {
        Builder b = builder();
        for (ModuleData m : log.modules()) {
            ModuleId id = m.module();
            // what darshan-parser prints no records of: modules it cannot decode, DXT, a module whose first record failed
            if (id == null || id.currentVersion() == 0 || id == ModuleId.DXT_POSIX || id == ModuleId.DXT_MPIIO || m.note() != null) continue;
            for (Object r : m.records()) {
                long recId = CounterFields.recordId(r);
                b.record(id.label(), CounterFields.rank(r), recId, CounterFields.fileName(log, id, recId), id, r);
            }
        }
        return b.build();
    }

    public static final class Builder {
        private final CounterTable table = new CounterTable();

        private Builder() {
        }

        /**
         * One record: {@code record} is a {@link CounterRecord} in {@code layout}'s counter order (or a Lustre or heatmap
         * record), shown under {@code module} (e.g. the tracer's AGG-POSIX, whose records have the POSIX layout).
         */
        public Builder record(String module, long rank, long recordId, String file, ModuleId layout, Object record) {
            List<Counter> counters = new ArrayList<>();
            CounterFields.of(layout, record, (name, value) -> counters.add(new Counter(name, value)));
            if (counters.isEmpty()) return this;
            Record r = new Record(module, Long.toString(rank), Long.toUnsignedString(recordId), file, counters);
            table.modules.computeIfAbsent(module, m -> new ArrayList<>()).add(r);
            return this;
        }

        public CounterTable build() {
            return table;
        }
    }

    public Map<String, List<Record>> modules() {
        return modules;
    }

    public boolean isEmpty() {
        return modules.isEmpty();
    }

    /**
     * The POSIX module's access-size histogram summed over its records ([0] reads, [1] writes), or null when no
     * record has it. Shared files appear once (as rank -1 records), so each request counts once.
     */
    public long[][] posixSizeBins() {
        List<Record> posix = modules.get("POSIX");
        if (posix == null) return null;
        long[][] bins = new long[2][SizeBins.COUNT];
        boolean any = false;
        for (Record r : posix) {
            for (Counter c : r.counters()) {
                int op = READ_BINS.contains(c.name()) ? 0 : WRITE_BINS.contains(c.name()) ? 1 : -1;
                if (op < 0) continue;
                int bin = (op == 0 ? READ_BINS : WRITE_BINS).indexOf(c.name());
                try {
                    long v = Long.parseLong(c.value().trim());
                    if (v > 0) bins[op][bin] += v;
                    any = true;
                } catch (NumberFormatException e) {
                    // not a count: leave the bin as it is
                }
            }
        }
        return any ? bins : null;
    }
}
