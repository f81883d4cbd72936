package io.pdla.darshan;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one definition of the counters: Darshan's sizes, unique names, histograms named by SizeBins. */
class CounterDefinitionsTest {
    @Test
    void posixAndMpiioHaveDarshansCountersInTheRecordLayout() {
        assertEquals(69, PosixCounter.values().length, "POSIX v4 integer counters");
        assertEquals(17, PosixFCounter.values().length, "POSIX v4 floating-point counters");
        assertEquals(51, MpiioCounter.values().length, "MPI-IO v3 integer counters");
        assertEquals(17, MpiioFCounter.values().length, "MPI-IO v3 floating-point counters");
        assertEquals(List.of(Counter.names(PosixCounter.values())), CounterNames.counters(ModuleId.POSIX));
        assertEquals(List.of(Counter.names(MpiioFCounter.values())), CounterNames.fcounters(ModuleId.MPIIO));
    }

    @Test
    void everyCounterNameIsDefinedOnce() {
        Set<String> seen = new HashSet<>();
        for (ModuleId m : ModuleId.values()) {
            for (String n : CounterNames.counters(m)) assertTrue(seen.add(n), n + " defined twice");
            for (String n : CounterNames.fcounters(m)) assertTrue(seen.add(n), n + " defined twice");
        }
        assertTrue(seen.size() > 500, "all counter modules listed: " + seen.size());
    }

    @Test
    void everyHistogramIsNamedBySizeBins() {
        assertEquals(List.of(SizeBins.names("POSIX_SIZE_READ_")), SizeBins.names(PosixCounter.POSIX_SIZE_READ_0_100));
        assertEquals(List.of(SizeBins.names("POSIX_SIZE_WRITE_")), SizeBins.names(PosixCounter.POSIX_SIZE_WRITE_0_100));
        assertEquals(List.of(SizeBins.names("MPIIO_SIZE_READ_AGG_")), SizeBins.names(MpiioCounter.MPIIO_SIZE_READ_AGG_0_100));
        assertEquals(List.of(SizeBins.names("MPIIO_SIZE_WRITE_AGG_")), SizeBins.names(MpiioCounter.MPIIO_SIZE_WRITE_AGG_0_100));
        for (ModuleId m : ModuleId.values()) {
            List<String> names = CounterNames.counters(m);
            for (int i = 0; i < names.size(); i++) {
                String n = names.get(i);
                if (!n.endsWith("_" + SizeBins.SUFFIXES.get(0)) || !n.contains("_SIZE_")) continue;
                String prefix = n.substring(0, n.length() - SizeBins.SUFFIXES.get(0).length());
                assertEquals(List.of(SizeBins.names(prefix)), names.subList(i, i + SizeBins.COUNT), m + " histogram " + prefix);
            }
        }
    }

    @Test
    void binsHaveInclusiveUpperEdges() {
        assertEquals(SizeBins.COUNT, SizeBins.SUFFIXES.size());
        assertEquals(SizeBins.COUNT, SizeBins.LABELS.size());
        assertEquals(0, SizeBins.bin(100));
        assertEquals(1, SizeBins.bin(101));
        assertEquals(SizeBins.COUNT - 1, SizeBins.bin(Long.MAX_VALUE));
        assertEquals(5, SizeBins.binsUpTo(1 << 20), "0_100 .. 100K_1M end at or below 1 MiB");
    }
}
