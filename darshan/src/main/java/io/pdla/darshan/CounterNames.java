package io.pdla.darshan;

import java.util.List;

/**
 * The counter names of a counter module in record order ({@code CounterRecord.counters()} and {@code fcounters()}
 * index by them), as darshan-util names them: e.g. {@code POSIX_BYTES_READ}, {@code MPIIO_F_WRITE_TIME}.
 */
public final class CounterNames {
    private CounterNames() {}

    /** Integer counter names of a module, or an empty list for modules without counter records (DXT, LUSTRE, ...). */
    public static List<String> counters(ModuleId module) {
        CounterLayout l = CounterLayout.of(module);
        return l == null ? List.of() : List.of(l.intNames);
    }

    /** Floating-point counter names of a module, or an empty list. */
    public static List<String> fcounters(ModuleId module) {
        CounterLayout l = CounterLayout.of(module);
        return l == null ? List.of() : List.of(l.floatNames);
    }
}
