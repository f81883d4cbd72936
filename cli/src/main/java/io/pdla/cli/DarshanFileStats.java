package io.pdla.cli;

import io.pdla.darshan.CounterRecord;
import io.pdla.darshan.PosixFCounter;
import io.pdla.darshan.SizeBins;
import io.pdla.darshan.DarshanLog;
import io.pdla.darshan.LustreRecord;
import io.pdla.darshan.ModuleData;
import io.pdla.darshan.ModuleId;
import io.pdla.patterns.rootcause.FileIoStats;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.pdla.darshan.MpiioCounter.*;
import static io.pdla.darshan.PosixCounter.*;
import static io.pdla.darshan.PosixFCounter.*;

/**
 * A Darshan log's per-file intervals and counters as the root-cause analyzer's {@link FileIoStats}: POSIX gives the
 * interval (first open/read/write start to last close/read/write end), bytes, request sizes and consecutiveness,
 * MPI-IO whether collectives were used, LUSTRE the stripe count and OSTs. Shared records (rank -1) stand for every
 * rank. Small requests are those of the size bins up to 1 MiB (Drishti's threshold).
 */
final class DarshanFileStats {
    private DarshanFileStats() {}

    /** How files map to processes: 1-1 (one process), N-1 (one shared file), N-N (file per process), N-M. */
    enum IoMode { ONE_ONE("1-1"), N_ONE("N-1"), N_N("N-N"), N_M("N-M"), NONE("no file I/O");
        final String label;
        IoMode(String label) { this.label = label; }
    }

    private static final class Acc {
        double start = Double.MAX_VALUE, end = 0, meta;
        long views;
        long read, written, requests, small, consec;
        Set<Integer> ranks = new HashSet<>();
        boolean shared;
        Boolean collective;
        Integer stripes;
        Set<Integer> osts;
    }

    /** First open, read and write; last read, write and close (the file's active interval). */
    private static final PosixFCounter[] STARTS = {POSIX_F_OPEN_START_TIMESTAMP, POSIX_F_READ_START_TIMESTAMP, POSIX_F_WRITE_START_TIMESTAMP};
    private static final PosixFCounter[] ENDS = {POSIX_F_READ_END_TIMESTAMP, POSIX_F_WRITE_END_TIMESTAMP, POSIX_F_CLOSE_END_TIMESTAMP};
    /** Requests below 1 MiB are small (Drishti's rule): the size bins up to 100K_1M. */
    private static final int SMALL_BINS = SizeBins.binsUpTo(1 << 20);

    static List<FileIoStats> collect(DarshanLog log) {
        Map<Long, Acc> byId = new LinkedHashMap<>();
        ModuleData posix = log.module(ModuleId.POSIX);
        int nprocs = (int) Math.min(Math.max(log.job().nprocs(), 1), 1 << 20);
        if (posix != null) {
            for (CounterRecord r : posix.recordsOf(CounterRecord.class)) {
                long[] c = r.counters();
                double[] f = r.fcounters();
                Acc a = byId.computeIfAbsent(r.id(), k -> new Acc());
                for (PosixFCounter t : STARTS) if (f[t.ordinal()] > 0) a.start = Math.min(a.start, f[t.ordinal()]);
                for (PosixFCounter t : ENDS) a.end = Math.max(a.end, f[t.ordinal()]);
                a.read += Math.max(0, c[POSIX_BYTES_READ.ordinal()]);
                a.written += Math.max(0, c[POSIX_BYTES_WRITTEN.ordinal()]);
                long reqs = Math.max(0, c[POSIX_READS.ordinal()]) + Math.max(0, c[POSIX_WRITES.ordinal()]);
                a.requests += reqs;
                a.consec += Math.max(0, c[POSIX_CONSEC_READS.ordinal()]) + Math.max(0, c[POSIX_CONSEC_WRITES.ordinal()]);
                for (int i = 0; i < SMALL_BINS; i++) {
                    a.small += Math.max(0, c[POSIX_SIZE_READ_0_100.ordinal() + i]) + Math.max(0, c[POSIX_SIZE_WRITE_0_100.ordinal() + i]);
                }
                // META_TIME of a shared record is summed over all ranks, and per-rank records of one file add up
                // too: the per-rank mean is what compares with the file's interval
                a.meta += Math.max(0, f[POSIX_F_META_TIME.ordinal()]);
                a.views += r.rank() < 0 ? nprocs : 1;
                if (r.rank() < 0) a.shared = true; else a.ranks.add((int) r.rank());
            }
        }
        ModuleData mpiio = log.module(ModuleId.MPIIO);
        if (mpiio != null) {
            for (CounterRecord r : mpiio.recordsOf(CounterRecord.class)) {
                Acc a = byId.get(r.id());
                if (a == null) continue;
                boolean coll = r.counters()[MPIIO_COLL_READS.ordinal()] + r.counters()[MPIIO_COLL_WRITES.ordinal()] > 0;
                a.collective = (a.collective != null && a.collective) || coll;
            }
        }
        ModuleData lustre = log.module(ModuleId.LUSTRE);
        if (lustre != null) {
            for (LustreRecord l : lustre.recordsOf(LustreRecord.class)) {
                Acc a = byId.get(l.id());
                if (a == null) continue;
                a.stripes = l.ostIds().length;
                a.osts = new HashSet<>();
                for (long o : l.ostIds()) a.osts.add((int) o);
            }
        }
        List<FileIoStats> out = new ArrayList<>();
        for (Map.Entry<Long, Acc> e : byId.entrySet()) {
            Acc a = e.getValue();
            if (a.read + a.written == 0 && a.requests == 0) continue;
            double start = a.start == Double.MAX_VALUE ? 0 : a.start;
            double end = Math.max(start, a.end);
            Set<Integer> ranks = a.ranks;
            if (a.shared) {
                ranks = new HashSet<>();
                for (int i = 0; i < nprocs; i++) ranks.add(i);
            }
            String name = log.name(e.getKey());
            if (name == null || name.isEmpty()) name = "record-" + Long.toUnsignedString(e.getKey());
            out.add(new FileIoStats(name, start, end, a.read, a.written, a.requests, a.small,
                    Math.max(0, a.requests - a.consec), a.collective, ranks, a.stripes, a.osts, a.meta / Math.max(1, a.views)));
        }
        return out;
    }

    /** Bytes moved per rank, when every record is per rank (shared records hide the per-rank split); else null. */
    static Map<Integer, Long> bytesByRank(DarshanLog log) {
        ModuleData posix = log.module(ModuleId.POSIX);
        if (posix == null) return null;
        Map<Integer, Long> out = new java.util.HashMap<>();
        for (CounterRecord r : posix.recordsOf(CounterRecord.class)) {
            if (r.rank() < 0) return null;
            out.merge((int) r.rank(), Math.max(0, r.counters()[POSIX_BYTES_READ.ordinal()])
                    + Math.max(0, r.counters()[POSIX_BYTES_WRITTEN.ordinal()]), Long::sum);
        }
        return out.isEmpty() ? null : out;
    }

    static IoMode mode(List<FileIoStats> files, long nprocs) {
        if (files.isEmpty()) return IoMode.NONE;
        Set<Integer> all = new HashSet<>();
        boolean anyShared = false;
        for (FileIoStats f : files) {
            if (f.ranks() != null) all.addAll(f.ranks());
            if (f.ranks() != null && f.ranks().size() > 1) anyShared = true;
        }
        if (nprocs <= 1 || all.size() <= 1) return IoMode.ONE_ONE;
        if (!anyShared) return IoMode.N_N;
        if (files.stream().filter(f -> f.ranks() != null && f.ranks().size() > 1).count() == 1
                && files.stream().allMatch(f -> f.ranks() == null || f.ranks().size() > 1)) {
            return IoMode.N_ONE;
        }
        return IoMode.N_M;
    }
}
