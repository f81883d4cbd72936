package io.pdla.tracer.counters;

import io.pdla.access.IoOp;
import io.pdla.access.TraceRecord;
import io.pdla.darshan.Compression;
import io.pdla.darshan.CounterRecord;
import io.pdla.darshan.DarshanJob;
import io.pdla.darshan.DarshanWriter;
import io.pdla.darshan.DxtRecord;
import io.pdla.darshan.Mount;
import io.pdla.tracer.format.JobInfo;
import io.pdla.tracer.format.TraceDirectory;
import io.pdla.tracer.format.TraceLayer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A trace directory as a real Darshan log: the reduced POSIX and MPI-IO counters (same counter order as Darshan,
 * record ids = {@link DarshanHash} of the path) and the application's calls as DXT_MPIIO and DXT_POSIX segments, so
 * darshan-parser, darshan-dxt-parser, PyDarshan, DXT Explorer and Drishti find pdla runs at both levels. A trace record is one flattened extent of a call, with the call's times; the POSIX module counts one
 * positional operation per such extent, so DXT_POSIX lists exactly those operations, and DXT_MPIIO the same
 * segments (one per call for the contiguous calls of most programs). The AGG-POSIX counters (collective-buffering
 * aggregators' storage requests) have no Darshan module of their own and are not exported.
 */
public final class DarshanLogExport {
    /** Hint naming the Darshan log the tracer writes at finalize ("true": {@value #DEFAULT_NAME} in the trace dir). */
    public static final String HINT = "pdla_trace_darshan";
    public static final String DEFAULT_NAME = "pdla.darshan";

    private DarshanLogExport() {}

    public static void write(Path traceDir, Path out) throws IOException {
        byte[] bytes = DarshanWriter.write(content(traceDir), Compression.ZLIB);
        Path tmp = out.resolveSibling(out.getFileName() + ".partial");
        Files.write(tmp, bytes);
        Files.move(tmp, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    public static DarshanWriter.Content content(Path traceDir) throws IOException {
        CounterLog log = CounterLog.load(traceDir, true);
        JobInfo job = log.job();
        Map<Long, String> names = new LinkedHashMap<>();
        Set<Mount> mounts = new LinkedHashSet<>();
        List<CounterRecord> posix = new ArrayList<>(), mpiio = new ArrayList<>();
        for (TracedRecord r : log.records()) {
            if (r.module() == Module.AGG_POSIX) continue;
            names.putIfAbsent(r.recordId(), r.fileName());
            if (r.mountPoint() != null && !"UNKNOWN".equals(r.mountPoint())) mounts.add(new Mount(r.mountPoint(), r.fsType()));
            (r.module() == Module.POSIX ? posix : mpiio).add(r.counters());
        }
        List<DxtRecord> dxt = dxt(traceDir, job, names);
        StringBuilder md = new StringBuilder("lib_ver=pdla\n");
        if (!job.hints().isEmpty()) {
            StringBuilder h = new StringBuilder();
            new TreeMap<>(job.hints()).forEach((k, v) -> h.append(h.length() == 0 ? "" : ";").append(k).append('=').append(v));
            if (md.length() + h.length() + 4 < 1000) md.append("h=").append(h).append('\n');
        }
        DarshanJob dj = new DarshanJob(0, job.startEpochNanos() / 1_000_000_000L, job.startEpochNanos() % 1_000_000_000L,
                job.endEpochNanos() / 1_000_000_000L, job.endEpochNanos() % 1_000_000_000L, job.app().processes(), 0,
                md.toString(), job.app().command(), List.copyOf(mounts));
        return new DarshanWriter.Content(dj, names, posix, mpiio, dxt, dxt);
    }

    /** Per rank and file, the application's data calls' extents: writes, then reads, each in call order. */
    private static List<DxtRecord> dxt(Path traceDir, JobInfo job, Map<Long, String> names) throws IOException {
        TraceDirectory td = TraceDirectory.open(traceDir, true);
        String host = java.net.InetAddress.getLocalHost().getHostName();
        List<DxtRecord> out = new ArrayList<>();
        for (int rank : td.ranks()) {
            Map<Integer, List<TraceRecord>> byFile = new TreeMap<>();
            try (Stream<TraceRecord> s = td.records(rank, TraceLayer.APPLICATION)) {
                Iterator<TraceRecord> it = s.iterator();
                while (it.hasNext()) {
                    TraceRecord t = it.next();
                    if (t.op().movesData()) byFile.computeIfAbsent(t.fileId(), k -> new ArrayList<>()).add(t);
                }
            }
            for (Map.Entry<Integer, List<TraceRecord>> e : byFile.entrySet()) {
                String path = job.files().get(e.getKey());
                if (path == null) continue;
                long id = DarshanHash.of(path);
                names.putIfAbsent(id, path);
                List<TraceRecord> w = e.getValue().stream().filter(t -> t.op() == IoOp.WRITE).toList();
                List<TraceRecord> r = e.getValue().stream().filter(t -> t.op() == IoOp.READ).toList();
                int n = w.size() + r.size();
                long[] off = new long[n], len = new long[n];
                double[] st = new double[n], en = new double[n];
                int i = 0;
                for (List<TraceRecord> part : List.of(w, r)) {
                    for (TraceRecord t : part) {
                        off[i] = t.offset();
                        len[i] = t.length();
                        st[i] = t.startNanos() / 1e9;
                        en[i] = t.endNanos() / 1e9;
                        i++;
                    }
                }
                out.add(new DxtRecord(id, rank, host, w.size(), r.size(), off, len, st, en, new long[n]));
            }
        }
        return out;
    }
}
