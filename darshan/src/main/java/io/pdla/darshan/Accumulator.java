package io.pdla.darshan;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * darshan-util's accumulator for POSIX, MPI-IO and STDIO: the summed "total" record (log_agg_records), the file
 * categories of --file and the slowest-rank figures of --perf.
 */
final class Accumulator {
    private final CounterLayout layout;
    private final ModuleId module;
    private final long nprocs;
    final long[] agg;
    final double[] fagg;
    private boolean first = true;
    private long aggId, aggRank;
    long totalBytes;
    double sharedTimeBySlowest;
    /** Per rank seen (io, rw, md): a damaged nprocs must not size an allocation, so only ranks with records are held. */
    private final java.util.TreeMap<Integer, double[]> perRank = new java.util.TreeMap<>();
    private final long rankLimit;
    private final Map<Long, long[]> files = new LinkedHashMap<>(); // r, w, maxOffset, nprocs

    Accumulator(ModuleId module, long nprocs) {
        this.module = module;
        this.layout = CounterLayout.of(module);
        this.nprocs = nprocs;
        this.agg = new long[layout.intNames.length];
        this.fagg = new double[layout.floatNames.length];
        this.rankLimit = Math.max(0, Math.min(nprocs, 1 << 24));
    }

    private int i(String n) { return layout.intIndex(prefix() + n); }

    private int fi(String n) { return layout.floatIndex(prefix() + "F_" + n); }

    private String prefix() { return module == ModuleId.MPIIO ? "MPIIO_" : module.label() + "_"; }

    void inject(CounterRecord r) {
        aggregate(r);
        long[] c = r.counters();
        double[] f = r.fcounters();
        long rb, wb, maxOff;
        if (module == ModuleId.MPIIO) {
            rb = c[i("BYTES_READ")]; wb = c[i("BYTES_WRITTEN")]; maxOff = -1;
        } else {
            rb = c[i("BYTES_READ")]; wb = c[i("BYTES_WRITTEN")];
            maxOff = Math.max(c[i("MAX_BYTE_READ")], c[i("MAX_BYTE_WRITTEN")]);
        }
        double io, md, rw;
        if (r.rank() < 0) {
            io = f[fi("SLOWEST_RANK_TIME")]; md = 0; rw = 0;
        } else {
            md = f[fi("META_TIME")];
            rw = f[fi("READ_TIME")] + f[fi("WRITE_TIME")];
            io = f[fi("META_TIME")] + f[fi("READ_TIME")] + f[fi("WRITE_TIME")];
        }
        totalBytes += rb + wb;
        if (r.rank() < 0) {
            sharedTimeBySlowest += io;
        } else if (r.rank() < rankLimit) {
            double[] t = perRank.computeIfAbsent((int) r.rank(), k -> new double[3]);
            t[0] += io; t[1] += rw; t[2] += md;
        }
        long[] e = files.computeIfAbsent(r.id(), k -> new long[4]);
        e[0] += rb;
        e[1] += wb;
        e[2] = maxOff == -1 ? -1 : Math.max(e[2], maxOff);
        if (r.rank() < 0) e[3] = -1; else e[3] += 1;
    }

    private void aggregate(CounterRecord r) {
        long[] c = r.counters();
        double[] f = r.fcounters();
        boolean init = first;
        first = false;
        long fastRank, slowRank, fastBytes, slowBytes;
        double fastTime, slowTime;
        if (r.rank() == -1) {
            fastRank = c[i("FASTEST_RANK")]; slowRank = c[i("SLOWEST_RANK")];
            fastBytes = c[i("FASTEST_RANK_BYTES")]; slowBytes = c[i("SLOWEST_RANK_BYTES")];
            fastTime = f[fi("FASTEST_RANK_TIME")]; slowTime = f[fi("SLOWEST_RANK_TIME")];
        } else {
            fastRank = slowRank = r.rank();
            fastBytes = slowBytes = c[i("BYTES_READ")] + c[i("BYTES_WRITTEN")];
            fastTime = slowTime = f[fi("READ_TIME")] + f[fi("WRITE_TIME")] + f[fi("META_TIME")];
        }
        if (init) { aggRank = r.rank(); aggId = r.id(); }
        boolean sameFile = aggId == r.id();
        if (!sameFile) aggId = 0;
        if (aggRank != r.rank()) aggRank = -1;
        for (int k = 0; k < c.length; k++) {
            String n = layout.intNames[k].substring(prefix().length());
            switch (kind(n)) {
                case SUM -> {
                    agg[k] += c[k];
                    // only darshan-util's POSIX accumulator clamps invalid (-1) sums; MPI-IO and STDIO add them up
                    if (module == ModuleId.POSIX && agg[k] < 0) agg[k] = -1;
                }
                case COPY -> agg[k] = c[k];
                case MAX -> { if (c[k] > agg[k]) agg[k] = c[k]; }
                case COMMON -> common(k, c);
                default -> { }
            }
        }
        for (int k = 0; k < f.length; k++) {
            String n = layout.floatNames[k].substring(prefix().length() + 2);
            if (n.equals("READ_TIME") || n.equals("WRITE_TIME") || n.equals("META_TIME")) {
                fagg[k] += f[k];
            } else if (n.endsWith("_START_TIMESTAMP")) {
                if (f[k] > 0 && (fagg[k] == 0 || f[k] < fagg[k])) fagg[k] = f[k];
            } else if (n.endsWith("_END_TIMESTAMP")) {
                if (f[k] > fagg[k]) fagg[k] = f[k];
            } else if (n.equals("MAX_READ_TIME") || n.equals("MAX_WRITE_TIME")) {
                if (f[k] > fagg[k]) {
                    fagg[k] = f[k];
                    int size = i(n.equals("MAX_READ_TIME") ? "MAX_READ_TIME_SIZE" : "MAX_WRITE_TIME_SIZE");
                    agg[size] = c[size];
                }
            } else if (n.equals("FASTEST_RANK_TIME")) {
                if (!sameFile) {
                    agg[i("FASTEST_RANK")] = -1; agg[i("FASTEST_RANK_BYTES")] = -1; fagg[k] = 0.0;
                } else if (init || fastTime < fagg[k]) {
                    agg[i("FASTEST_RANK")] = fastRank; agg[i("FASTEST_RANK_BYTES")] = fastBytes; fagg[k] = fastTime;
                }
            } else if (n.equals("SLOWEST_RANK_TIME")) {
                if (!sameFile) {
                    agg[i("SLOWEST_RANK")] = -1; agg[i("SLOWEST_RANK_BYTES")] = -1; fagg[k] = 0.0;
                } else if (init || slowTime > fagg[k]) {
                    agg[i("SLOWEST_RANK")] = slowRank; agg[i("SLOWEST_RANK_BYTES")] = slowBytes; fagg[k] = slowTime;
                }
            } else if (n.startsWith("VARIANCE_RANK_")) {
                fagg[k] = 0;
            }
        }
    }

    private enum Kind { SUM, COPY, MAX, COMMON, NONE }

    private Kind kind(String n) {
        if (n.equals("STRIDE1_STRIDE") || n.equals("ACCESS1_ACCESS")) return Kind.COMMON;
        if (n.matches("(STRIDE|ACCESS)\\d_(STRIDE|ACCESS|COUNT)")) return Kind.NONE;
        if (n.equals("RENAMED_FROM") || n.equals("MODE") || n.equals("MEM_ALIGNMENT") || n.equals("FILE_ALIGNMENT")) {
            return Kind.COPY;
        }
        if (n.startsWith("MAX_BYTE_")) return Kind.MAX;
        if (n.startsWith("MAX_") || n.startsWith("FASTEST_") || n.startsWith("SLOWEST_")) return Kind.NONE;
        return Kind.SUM;
    }

    /** The top-4 common-value merge, transcribed from darshan-util including its quirks. */
    private void common(int i, long[] c) {
        if (module == ModuleId.MPIIO && c[i] == 0) return;
        boolean[] dup = new boolean[4];
        for (int j = i; j < i + 4; j++) {
            for (int k = 0; k < 4; k++) {
                if (agg[i + k] == c[j]) { agg[i + k + 4] += c[j + 4]; dup[j - i] = true; }
            }
        }
        long[] tv = new long[4], tc = new long[4];
        for (int j = i; j < i + 4; j++) {
            if (dup[j - i]) continue;
            int nd = 0;
            java.util.Arrays.fill(tv, 0);
            java.util.Arrays.fill(tc, 0);
            if (c[j] == 0) break;
            int k;
            int total = 0;
            for (k = 0; k < 4; k++) {
                if (agg[i + k] == c[j]) { total = (int) (agg[i + k + 4] + c[j + 4]); break; }
            }
            if (k == 4) total = (int) c[j + 4];
            for (k = 0; k < 4; k++) {
                if (agg[i + k + 4] > total || (agg[i + k + 4] == total && agg[i + k] > c[j])) {
                    tv[nd] = agg[i + k]; tc[nd] = agg[i + k + 4]; nd++;
                } else break;
            }
            if (nd == 4) break;
            tv[nd] = c[j]; tc[nd] = c[j + 4]; nd++;
            while (nd != 4) {
                if (agg[i + k] != c[j]) { tv[nd] = agg[i + k]; tc[nd] = agg[i + k + 4]; nd++; }
                k++;
            }
            System.arraycopy(tv, 0, agg, i, 4);
            System.arraycopy(tc, 0, agg, i + 4, 4);
        }
    }

    /** count, read+write bytes, max offset per category: all, read_only, write_only, read_write, unique, shared, part-shared. */
    long[][] categories() {
        long[][] cat = new long[7][5]; // count, bytes, maxOffset, nprocs, (unused)
        for (long[] e : files.values()) {
            inc(cat[0], e);
            if (e[0] > 0 && e[1] == 0) inc(cat[1], e);
            else if (e[1] > 0 && e[0] == 0) inc(cat[2], e);
            else if (e[1] > 0 && e[0] > 0) inc(cat[3], e);
            if (e[3] == 1) inc(cat[4], e);
            else if (e[3] == -1) inc(cat[5], e);
            else inc(cat[6], e);
        }
        return cat;
    }

    private void inc(long[] cat, long[] e) {
        cat[0]++;
        cat[1] += e[0] + e[1];
        if (e[2] == -1) cat[2] = -1;
        else if (cat[2] != -1) cat[2] = Math.max(cat[2], e[2]);
        else cat[2] = Math.max(cat[2], e[2]);
    }

    /** unique io, md-only, rw-only time of the slowest rank, and that rank. */
    double[] slowestUnique() {
        double io = 0, md = 0, rw = 0;
        int rank = 0;
        for (java.util.Map.Entry<Integer, double[]> e : perRank.entrySet()) {
            double[] t = e.getValue();
            if (t[0] > io) { io = t[0]; rw = t[1]; md = t[2]; rank = e.getKey(); }
        }
        return new double[] {io, md, rw, rank};
    }
}
