package io.pdla.analytics;

import io.pdla.darshan.CounterNames;
import io.pdla.darshan.MpiioCounter;
import io.pdla.darshan.MpiioFCounter;
import io.pdla.darshan.PosixCounter;
import io.pdla.darshan.PosixFCounter;
import io.pdla.darshan.CounterRecord;
import io.pdla.darshan.DarshanJob;
import io.pdla.darshan.DarshanLog;
import io.pdla.darshan.DxtRecord;
import io.pdla.darshan.LustreRecord;
import io.pdla.darshan.ModuleData;
import io.pdla.darshan.ModuleId;
import io.pdla.darshan.Mount;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One Darshan log (or a trace directory turned into one) as rows of the four tables ({@link #emit}: job, file,
 * rank; {@link #segments}: segment).
 *
 * <ul>
 *   <li>file: one row per Darshan file record, keyed (file_id, rank): rank -1 is a file shared by all ranks and
 *       reduced by Darshan; its POSIX and MPI-IO counters side by side (NULL where the module has no record),
 *       plus the LUSTRE stripe size, stripe width and OST count of the file where the log has them.</li>
 *   <li>rank: per rank the sums of its own records; rank -1 sums the shared records.</li>
 *   <li>segment: one row per DXT_POSIX / DXT_MPIIO segment (times in seconds from the job start, as DXT).</li>
 *   <li>job: the job record, sums of {@link Schema#JOB_SUMS}, and derived columns: read/write/meta time are the
 *       POSIX (else MPI-IO) cumulative times divided by nprocs (the mean process's time, as darshan-parser's
 *       "total I/O time"), io_time their sum, bandwidth = (bytes_read + bytes_written) / io_time in MiB/s,
 *       io_mode as {@code pdla why} classifies (1-1, N-1, N-N, N-M, none), fs_type/mount of the mount that moved
 *       most bytes, LUSTRE_STRIPE_WIDTH the widest file, LUSTRE_OST_COUNT the distinct OSTs, procs_per_ost the
 *       largest processes-per-stripe ratio of a file.</li>
 * </ul>
 */
final class LogRows {
    private LogRows() {}

    private static final int P_READS, P_WRITES, P_BYTES_READ, P_BYTES_WRITTEN, PF_READ, PF_WRITE, PF_META;
    private static final int M_BYTES_READ, M_BYTES_WRITTEN, MF_READ, MF_WRITE, MF_META;
    private static final int FILE_POSIX, FILE_POSIX_F, FILE_MPIIO, FILE_MPIIO_F, FILE_LUSTRE;
    /** For each job sum: module, float or not, index in the record. */
    private static final ModuleId[] SUM_MODULE;
    private static final boolean[] SUM_FLOAT;
    private static final int[] SUM_INDEX;
    private static final int JOB_SUMS_AT;

    static {
        List<String> pc = CounterNames.counters(ModuleId.POSIX), pf = CounterNames.fcounters(ModuleId.POSIX);
        List<String> mc = CounterNames.counters(ModuleId.MPIIO), mf = CounterNames.fcounters(ModuleId.MPIIO);
        P_READS = PosixCounter.POSIX_READS.ordinal();
        P_WRITES = PosixCounter.POSIX_WRITES.ordinal();
        P_BYTES_READ = PosixCounter.POSIX_BYTES_READ.ordinal();
        P_BYTES_WRITTEN = PosixCounter.POSIX_BYTES_WRITTEN.ordinal();
        PF_READ = PosixFCounter.POSIX_F_READ_TIME.ordinal();
        PF_WRITE = PosixFCounter.POSIX_F_WRITE_TIME.ordinal();
        PF_META = PosixFCounter.POSIX_F_META_TIME.ordinal();
        M_BYTES_READ = MpiioCounter.MPIIO_BYTES_READ.ordinal();
        M_BYTES_WRITTEN = MpiioCounter.MPIIO_BYTES_WRITTEN.ordinal();
        MF_READ = MpiioFCounter.MPIIO_F_READ_TIME.ordinal();
        MF_WRITE = MpiioFCounter.MPIIO_F_WRITE_TIME.ordinal();
        MF_META = MpiioFCounter.MPIIO_F_META_TIME.ordinal();
        FILE_POSIX = Schema.FILE.index(pc.get(0));
        FILE_POSIX_F = Schema.FILE.index(pf.get(0));
        FILE_MPIIO = Schema.FILE.index(mc.get(0));
        FILE_MPIIO_F = Schema.FILE.index(mf.get(0));
        FILE_LUSTRE = Schema.FILE.index("LUSTRE_STRIPE_SIZE");
        int n = Schema.JOB_SUMS.size();
        SUM_MODULE = new ModuleId[n];
        SUM_FLOAT = new boolean[n];
        SUM_INDEX = new int[n];
        for (int i = 0; i < n; i++) {
            String s = Schema.JOB_SUMS.get(i);
            ModuleId m = s.startsWith("POSIX_") ? ModuleId.POSIX : s.startsWith("MPIIO_") ? ModuleId.MPIIO : ModuleId.STDIO;
            SUM_MODULE[i] = m;
            SUM_FLOAT[i] = s.contains("_F_");
            SUM_INDEX[i] = (SUM_FLOAT[i] ? CounterNames.fcounters(m) : CounterNames.counters(m)).indexOf(s);
            if (SUM_INDEX[i] < 0) throw new IllegalStateException("no counter " + s);
        }
        JOB_SUMS_AT = Schema.JOB.index(Schema.JOB_SUMS.get(0));
    }

    private record Key(long id, long rank) {}

    private static final class FileAcc {
        long bytes;
        Set<Long> ranks = new HashSet<>();
        boolean shared;
    }

    private static final class RankAcc {
        Set<Long> files = new HashSet<>();
        long reads, writes, read, written;
        double rt, wt, mt;
    }

    static void emit(DarshanLog log, long jobKey, String source, String path, RowSink sink) throws Exception {
        DarshanJob job = log.job();
        long nprocs = Math.max(1, job.nprocs());
        ModuleData posix = log.module(ModuleId.POSIX), mpiio = log.module(ModuleId.MPIIO),
                stdio = log.module(ModuleId.STDIO), lustre = log.module(ModuleId.LUSTRE);
        List<CounterRecord> pRecs = posix == null ? List.of() : posix.recordsOf(CounterRecord.class);
        List<CounterRecord> mRecs = mpiio == null ? List.of() : mpiio.recordsOf(CounterRecord.class);
        List<CounterRecord> sRecs = stdio == null ? List.of() : stdio.recordsOf(CounterRecord.class);

        Map<Long, LustreRecord> lustreById = new HashMap<>();
        if (lustre != null) for (LustreRecord l : lustre.recordsOf(LustreRecord.class)) lustreById.putIfAbsent(l.id(), l);

        // file rows: POSIX and MPI-IO records of the same (id, rank) side by side
        Map<Key, Object[]> files = new LinkedHashMap<>();
        int fileCols = Schema.FILE.columns().size();
        Map<Long, FileAcc> perFile = new LinkedHashMap<>();
        Map<Long, RankAcc> perRank = new LinkedHashMap<>();
        Map<String, Long> bytesByMount = new HashMap<>();
        Map<String, String> mountType = new HashMap<>();
        for (int pass = 0; pass < 2; pass++) {
            List<CounterRecord> recs = pass == 0 ? pRecs : mRecs;
            int at = pass == 0 ? FILE_POSIX : FILE_MPIIO, atF = pass == 0 ? FILE_POSIX_F : FILE_MPIIO_F;
            for (CounterRecord r : recs) {
                Object[] row = files.computeIfAbsent(new Key(r.id(), r.rank()), k -> {
                    Object[] v = new Object[fileCols];
                    String name = log.name(k.id());
                    Mount m = job.mountOf(name);
                    v[0] = jobKey;
                    v[1] = k.id();
                    v[2] = k.rank();
                    v[3] = name;
                    v[4] = m == null ? null : m.path();
                    v[5] = m == null ? null : m.type();
                    v[6] = k.rank() < 0 ? nprocs : 1L;
                    LustreRecord l = lustreById.get(k.id());
                    if (l != null) {
                        v[FILE_LUSTRE] = l.components().length > 0 ? l.components()[0][LustreRecord.STRIPE_SIZE] : null;
                        v[FILE_LUSTRE + 1] = (long) l.ostIds().length;
                        v[FILE_LUSTRE + 2] = java.util.Arrays.stream(l.ostIds()).distinct().count();
                    }
                    return v;
                });
                long[] c = r.counters();
                double[] f = r.fcounters();
                for (int i = 0; i < c.length; i++) row[at + i] = c[i];
                for (int i = 0; i < f.length; i++) row[atF + i] = f[i];
                FileAcc fa = perFile.computeIfAbsent(r.id(), k -> new FileAcc());
                if (r.rank() < 0) fa.shared = true; else fa.ranks.add(r.rank());
                if (pass == 0) {
                    long b = pos(c[P_BYTES_READ]) + pos(c[P_BYTES_WRITTEN]);
                    fa.bytes += b;
                    Mount m = job.mountOf(log.name(r.id()));
                    if (m != null) {
                        bytesByMount.merge(m.path(), b, Long::sum);
                        mountType.put(m.path(), m.type());
                    }
                    RankAcc ra = perRank.computeIfAbsent(r.rank() < 0 ? -1L : r.rank(), k -> new RankAcc());
                    ra.files.add(r.id());
                    ra.reads += pos(c[P_READS]);
                    ra.writes += pos(c[P_WRITES]);
                    ra.read += pos(c[P_BYTES_READ]);
                    ra.written += pos(c[P_BYTES_WRITTEN]);
                    ra.rt += pos(f[PF_READ]);
                    ra.wt += pos(f[PF_WRITE]);
                    ra.mt += pos(f[PF_META]);
                }
            }
        }
        for (Object[] row : files.values()) sink.row(Schema.FILE, row);
        for (Map.Entry<Long, RankAcc> e : perRank.entrySet()) {
            RankAcc a = e.getValue();
            sink.row(Schema.RANK, new Object[] {jobKey, e.getKey(), (long) a.files.size(), a.reads, a.writes, a.read,
                    a.written, a.rt, a.wt, a.mt, a.rt + a.wt + a.mt});
        }

        // job row
        Object[] j = new Object[Schema.JOB.columns().size()];
        double[] sums = new double[Schema.JOB_SUMS.size()];
        for (int i = 0; i < sums.length; i++) {
            List<CounterRecord> recs = SUM_MODULE[i] == ModuleId.POSIX ? pRecs : SUM_MODULE[i] == ModuleId.MPIIO ? mRecs : sRecs;
            double s = 0;
            for (CounterRecord r : recs) s += SUM_FLOAT[i] ? pos(r.fcounters()[SUM_INDEX[i]]) : pos(r.counters()[SUM_INDEX[i]]);
            sums[i] = s;
            j[JOB_SUMS_AT + i] = SUM_FLOAT[i] ? (Object) s : (Object) (long) s;
        }
        double rt, wt, mt;
        if (!pRecs.isEmpty()) {
            rt = sum(pRecs, PF_READ); wt = sum(pRecs, PF_WRITE); mt = sum(pRecs, PF_META);
        } else {
            rt = sum(mRecs, MF_READ); wt = sum(mRecs, MF_WRITE); mt = sum(mRecs, MF_META);
        }
        rt /= nprocs;
        wt /= nprocs;
        mt /= nprocs;
        long bytesRead = 0, bytesWritten = 0;
        for (CounterRecord r : pRecs) { bytesRead += pos(r.counters()[P_BYTES_READ]); bytesWritten += pos(r.counters()[P_BYTES_WRITTEN]); }
        if (pRecs.isEmpty()) for (CounterRecord r : mRecs) { bytesRead += pos(r.counters()[M_BYTES_READ]); bytesWritten += pos(r.counters()[M_BYTES_WRITTEN]); }
        bytesRead += (long) sums[Schema.JOB_SUMS.indexOf("STDIO_BYTES_READ")];
        bytesWritten += (long) sums[Schema.JOB_SUMS.indexOf("STDIO_BYTES_WRITTEN")];
        Set<Long> allFiles = new HashSet<>(perFile.keySet());
        for (CounterRecord r : sRecs) allFiles.add(r.id());
        long shared = perFile.values().stream().filter(a -> a.shared || a.ranks.size() > 1).count();
        String mount = bytesByMount.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
        Long stripeWidth = null;
        Set<Long> osts = new HashSet<>();
        Double procsPerOst = null;
        for (Map.Entry<Long, FileAcc> e : perFile.entrySet()) {
            LustreRecord l = lustreById.get(e.getKey());
            if (l == null || l.ostIds().length == 0) continue;
            long w = l.ostIds().length;
            stripeWidth = stripeWidth == null ? w : Math.max(stripeWidth, w);
            for (long o : l.ostIds()) osts.add(o);
            long procs = e.getValue().shared ? nprocs : e.getValue().ranks.size();
            double ratio = (double) procs / w;
            procsPerOst = procsPerOst == null ? ratio : Math.max(procsPerOst, ratio);
        }
        String exe = job.exe() == null ? "" : job.exe().strip();
        double start = job.startSec() + job.startNsec() / 1e9, end = job.endSec() + job.endNsec() / 1e9;
        double io = rt + wt + mt;
        Object[] head = {jobKey, source, path, log.header().version(), log.firstError() == null, job.jobId(), job.uid(),
                exe, app(exe), nprocs, start, end, job.runTime(log.header()), io, rt, wt, mt, bytesRead, bytesWritten,
                io > 0 ? (bytesRead + bytesWritten) / io / (1 << 20) : null, (long) allFiles.size(), shared,
                ioMode(perFile, nprocs), mount == null ? null : mountType.get(mount), mount, stripeWidth,
                osts.isEmpty() ? null : (long) osts.size(), procsPerOst};
        System.arraycopy(head, 0, j, 0, head.length);
        sink.row(Schema.JOB, j);
    }

    /** The log's DXT segments (kept apart from {@link #emit}: a log can hold millions, appended straight from its arrays). */
    static long segments(DarshanLog log, long jobKey, RowSink sink) throws Exception {
        long n = 0;
        for (ModuleId dxt : List.of(ModuleId.DXT_POSIX, ModuleId.DXT_MPIIO)) {
            ModuleData md = log.module(dxt);
            if (md == null) continue;
            String label = dxt.label();
            for (DxtRecord d : md.recordsOf(DxtRecord.class)) {
                for (int i = 0; i < d.segmentCount(); i++) {
                    sink.segment(jobKey, d.id(), d.rank(), label, d.isWrite(i) ? "write" : "read", d.offsets()[i],
                            d.lengths()[i], d.starts()[i], d.ends()[i]);
                }
                n += d.segmentCount();
            }
        }
        return n;
    }

    /** The application: the executable's file name, without arguments or directories. */
    static String app(String exe) {
        String first = exe.isEmpty() ? "" : exe.split("\\s+", 2)[0];
        int slash = first.lastIndexOf('/');
        return slash >= 0 ? first.substring(slash + 1) : first;
    }

    /** As {@code pdla why}: over files that moved data, 1-1, N-N (no file shared), N-1 (one file, shared), else N-M. */
    static String ioMode(Map<Long, FileAcc> files, long nprocs) {
        Set<Long> all = new HashSet<>();
        int io = 0, sharedFiles = 0;
        boolean everyShared = true;
        for (FileAcc f : files.values()) {
            if (f.bytes == 0) continue;
            io++;
            boolean sh = f.shared || f.ranks.size() > 1;
            if (f.shared) for (long r = 0; r < nprocs && all.size() <= 1; r++) all.add(r);
            else all.addAll(f.ranks);
            if (sh) sharedFiles++; else everyShared = false;
        }
        if (io == 0) return "none";
        if (nprocs <= 1 || all.size() <= 1) return "1-1";
        if (sharedFiles == 0) return "N-N";
        if (sharedFiles == 1 && everyShared) return "N-1";
        return "N-M";
    }

    private static double sum(List<CounterRecord> recs, int f) {
        double s = 0;
        for (CounterRecord r : recs) s += pos(r.fcounters()[f]);
        return s;
    }

    private static long pos(long v) { return Math.max(0, v); }

    private static double pos(double v) { return v > 0 ? v : 0; }
}
