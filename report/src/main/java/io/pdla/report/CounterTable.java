package io.pdla.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counters in darshan-parser's text layout ({@code <module>\t<rank>\t<record id>\t<counter>\t<value>\t<file>\t<mount>\t<fs>},
 * {@code #} comments), which both pdla's trace directories ({@code pdla counters}) and Darshan logs
 * ({@code pdla darshan parse}) print, folded by module and record.
 */
public final class CounterTable {
    public record Counter(String name, String value) {
    }

    public record Record(String module, String rank, String id, String file, List<Counter> counters) {
    }

    private static final List<String> BIN_SUFFIX = List.of("0_100", "100_1K", "1K_10K", "10K_100K", "100K_1M", "1M_4M",
            "4M_10M", "10M_100M", "100M_1G", "1G_PLUS");

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
        long[][] bins = new long[2][BIN_SUFFIX.size()];
        boolean any = false;
        for (Record r : posix) {
            for (Counter c : r.counters()) {
                int op = c.name().startsWith("POSIX_SIZE_READ_") ? 0 : c.name().startsWith("POSIX_SIZE_WRITE_") ? 1 : -1;
                if (op < 0) continue;
                int bin = BIN_SUFFIX.indexOf(c.name().substring(op == 0 ? 16 : 17));
                if (bin < 0) continue;
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
