package io.pdla.tracer.counters;

import io.pdla.darshan.Counter;
import io.pdla.darshan.CounterRecord;

import java.util.Arrays;
import java.util.List;

/**
 * One file's counters on one rank as the tracer keeps them (rank -1 for a record reduced over all ranks of a shared
 * file): a Darshan {@link CounterRecord} in its module's layout, with the file's name, mount point and file system
 * type and the tracer's {@link Module} (AGG-POSIX records have POSIX's layout). Float counters are seconds. Mutable
 * while counters accumulate; the runtime hands out copies.
 */
public final class TracedRecord {
    private final Module module;
    private final String fileName;
    private final String mountPoint;
    private final String fsType;
    private final CounterRecord counters;

    public TracedRecord(Module module, int rank, long recordId, String fileName, String mountPoint, String fsType) {
        this(module, rank, recordId, fileName, mountPoint, fsType, new long[module.counters().size()],
                new double[module.fcounters().size()]);
    }

    public TracedRecord(Module module, int rank, long recordId, String fileName, String mountPoint, String fsType,
                        long[] counters, double[] fcounters) {
        if (counters.length != module.counters().size() || fcounters.length != module.fcounters().size()) {
            throw new IllegalArgumentException(module + " record needs " + module.counters().size() + " + "
                    + module.fcounters().size() + " counters, got " + counters.length + " + " + fcounters.length);
        }
        this.module = module;
        this.fileName = fileName;
        this.mountPoint = mountPoint;
        this.fsType = fsType;
        this.counters = new CounterRecord(recordId, rank, 0, counters, fcounters);
    }

    public TracedRecord withRank(int newRank) {
        return new TracedRecord(module, newRank, recordId(), fileName, mountPoint, fsType, counters.counters().clone(),
                counters.fcounters().clone());
    }

    public TracedRecord copy() {
        return withRank(rank());
    }

    public Module module() {
        return module;
    }

    public int rank() {
        return (int) counters.rank();
    }

    public long recordId() {
        return counters.id();
    }

    public String fileName() {
        return fileName;
    }

    public String mountPoint() {
        return mountPoint;
    }

    public String fsType() {
        return fsType;
    }

    /**
     * The counters as the darshan module's record in {@link Module#layout()}'s order, for its writer, printer, totals
     * and reports. Live: it changes while this record accumulates.
     */
    public CounterRecord counters() {
        return counters;
    }

    public long get(Counter c) {
        return counters.counters()[index(c, module.counters())];
    }

    public void set(Counter c, long v) {
        counters.counters()[index(c, module.counters())] = v;
    }

    public void add(Counter c, long v) {
        counters.counters()[index(c, module.counters())] += v;
    }

    public double getF(Counter c) {
        return counters.fcounters()[index(c, module.fcounters())];
    }

    public void setF(Counter c, double v) {
        counters.fcounters()[index(c, module.fcounters())] = v;
    }

    long[] rawCounters() {
        return counters.counters();
    }

    double[] rawFCounters() {
        return counters.fcounters();
    }

    private int index(Counter c, List<Counter> list) {
        int i = c.ordinal();
        if (i >= list.size() || list.get(i) != c) throw new IllegalArgumentException(c + " is not a " + module + " counter");
        return i;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TracedRecord r && r.module == module && r.rank() == rank() && r.recordId() == recordId()
                && r.fileName.equals(fileName) && Arrays.equals(r.rawCounters(), rawCounters())
                && Arrays.equals(r.rawFCounters(), rawFCounters());
    }

    @Override
    public int hashCode() {
        return Long.hashCode(recordId()) * 31 + rank();
    }

    @Override
    public String toString() {
        return module + "[rank " + rank() + ", " + fileName + "]";
    }
}
