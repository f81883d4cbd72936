package io.pdla.tracer.counters;

import io.pdla.darshan.Counter;
import io.pdla.darshan.PosixCounter;
import io.pdla.darshan.PosixFCounter;
import io.pdla.darshan.MpiioCounter;
import io.pdla.darshan.MpiioFCounter;

import io.pdla.darshan.ModuleId;

import java.util.List;

/** A Darshan module: its name in darshan-parser output, its id in our counter file, and its counters. */
public enum Module {
    POSIX("POSIX", 1, PosixCounter.values(), PosixFCounter.values()),
    MPIIO("MPI-IO", 2, MpiioCounter.values(), MpiioFCounter.values()),
    /**
     * Not a Darshan module: the POSIX counters of the storage requests collective-buffering aggregators made
     * on behalf of collective calls (what Darshan's POSIX module shows under MPI-IO's when ROMIO aggregates),
     * kept apart from the POSIX record of the application's own calls.
     */
    AGG_POSIX("AGG-POSIX", 3, PosixCounter.values(), PosixFCounter.values());

    private final String label;
    private final int id;
    private final List<Counter> counters;
    private final List<Counter> fcounters;

    Module(String label, int id, Counter[] counters, Counter[] fcounters) {
        this.label = label;
        this.id = id;
        this.counters = List.of(counters);
        this.fcounters = List.of(fcounters);
    }

    /** The name darshan-parser prints ("POSIX", "MPI-IO"). */
    public String label() {
        return label;
    }

    public int id() {
        return id;
    }

    /** The Darshan module whose record layout this module's records have (AGG-POSIX: POSIX's). */
    public ModuleId layout() {
        return posixCounters() ? ModuleId.POSIX : ModuleId.MPIIO;
    }

    /** Whether the record holds POSIX counters (the application's or the aggregators'). */
    public boolean posixCounters() {
        return this != MPIIO;
    }

    public List<Counter> counters() {
        return counters;
    }

    public List<Counter> fcounters() {
        return fcounters;
    }

    public static Module byId(int id) {
        for (Module m : values()) if (m.id == id) return m;
        return null;
    }
}
