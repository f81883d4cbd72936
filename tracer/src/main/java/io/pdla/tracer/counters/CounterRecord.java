package io.pdla.tracer.counters;

import io.pdla.darshan.Counter;

import java.util.Arrays;

/**
 * One Darshan record: a module's counters for one file and one rank (rank -1 for a record reduced over
 * all ranks of a shared file). Float counters are seconds. Mutable while counters accumulate; the
 * runtime hands out copies.
 */
public final class CounterRecord {
    private final Module module;
    private final int rank;
    private final long recordId;
    private final String fileName;
    private final String mountPoint;
    private final String fsType;
    private final long[] counters;
    private final double[] fcounters;

    public CounterRecord(Module module, int rank, long recordId, String fileName, String mountPoint, String fsType) {
        this(module, rank, recordId, fileName, mountPoint, fsType, new long[module.counters().size()],
                new double[module.fcounters().size()]);
    }

    public CounterRecord(Module module, int rank, long recordId, String fileName, String mountPoint, String fsType,
                         long[] counters, double[] fcounters) {
        if (counters.length != module.counters().size() || fcounters.length != module.fcounters().size()) {
            throw new IllegalArgumentException(module + " record needs " + module.counters().size() + " + "
                    + module.fcounters().size() + " counters, got " + counters.length + " + " + fcounters.length);
        }
        this.module = module;
        this.rank = rank;
        this.recordId = recordId;
        this.fileName = fileName;
        this.mountPoint = mountPoint;
        this.fsType = fsType;
        this.counters = counters;
        this.fcounters = fcounters;
    }

    public CounterRecord withRank(int newRank) {
        return new CounterRecord(module, newRank, recordId, fileName, mountPoint, fsType, counters.clone(), fcounters.clone());
    }

    public CounterRecord copy() {
        return withRank(rank);
    }

    public Module module() {
        return module;
    }

    public int rank() {
        return rank;
    }

    public long recordId() {
        return recordId;
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

    public long get(Counter c) {
        return counters[index(c, module.counters())];
    }

    public void set(Counter c, long v) {
        counters[index(c, module.counters())] = v;
    }

    public void add(Counter c, long v) {
        counters[index(c, module.counters())] += v;
    }

    public double getF(Counter c) {
        return fcounters[index(c, module.fcounters())];
    }

    public void setF(Counter c, double v) {
        fcounters[index(c, module.fcounters())] = v;
    }

    long[] rawCounters() {
        return counters;
    }

    double[] rawFCounters() {
        return fcounters;
    }

    private int index(Counter c, java.util.List<Counter> list) {
        int i = c.ordinal();
        if (i >= list.size() || list.get(i) != c) throw new IllegalArgumentException(c + " is not a " + module + " counter");
        return i;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CounterRecord r && r.module == module && r.rank == rank && r.recordId == recordId
                && r.fileName.equals(fileName) && Arrays.equals(r.counters, counters) && Arrays.equals(r.fcounters, fcounters);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(recordId) * 31 + rank;
    }

    @Override
    public String toString() {
        return module + "[rank " + rank + ", " + fileName + "]";
    }
}
