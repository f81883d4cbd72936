package io.pdla.tracer.format;

import io.pdla.access.TraceRecord;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * The plain-text form of traces ({@code pdla trace dump}): one request per line with the IOSIG fields
 * rank, process id, file id, operation, positioning, collective or independent, offset, length, start and
 * end (nanoseconds since the job start), space-separated or as CSV. Streams rank by rank.
 */
public final class TraceText {
    public static final String CSV_HEADER = "rank,pid,file_id,op,positioning,mode,offset,length,start_ns,end_ns";

    private TraceText() {
    }

    /** One line of the plain text form, without the line end. */
    public static String line(TraceRecord r, long pid, boolean csv) {
        char sep = csv ? ',' : ' ';
        return new StringBuilder(96).append(r.rank()).append(sep).append(pid).append(sep).append(r.fileId()).append(sep)
                .append(r.op()).append(sep).append(r.positioning()).append(sep).append(r.collective() ? "coll" : "indep").append(sep)
                .append(r.offset()).append(sep).append(r.length()).append(sep).append(r.startNanos()).append(sep).append(r.endNanos())
                .toString();
    }

    /** Dumps every rank's application layer; returns the number of requests printed. */
    public static long dump(TraceDirectory dir, boolean csv, PrintWriter out) throws IOException {
        return dump(dir, TraceLayer.APPLICATION, csv, out);
    }

    /** Dumps every rank's trace of one layer; returns the number of requests printed. */
    public static long dump(TraceDirectory dir, TraceLayer layer, boolean csv, PrintWriter out) throws IOException {
        if (csv) {
            out.println(CSV_HEADER);
        } else {
            out.println("# pdla trace: " + dir.dir() + ", " + dir.nprocs() + " processes, job start " + dir.jobStartEpochNanos() + " ns since the epoch");
            if (layer == TraceLayer.AGGREGATOR) {
                out.println("# layer: aggregator (storage requests collective-buffering aggregators made for collective calls); ranks with one: "
                        + dir.ranksWith(layer));
            }
            Map<Integer, String> files = new TreeMap<>();
            try {
                files.putAll(dir.job().files());
            } catch (IOException noSummaries) {
                out.println("# (no job summary: " + noSummaries.getMessage() + ")");
            }
            for (Map.Entry<Integer, String> f : files.entrySet()) out.println("# file " + f.getKey() + " " + f.getValue());
            out.println("# rank pid file_id op positioning mode offset length start_ns end_ns");
        }
        long n = 0;
        if (!dir.missingRanks().isEmpty() && !csv) out.println("# ranks without a trace (no file opened): " + dir.missingRanks());
        for (int r : dir.ranks()) {
            if (!dir.hasLayer(r, layer)) continue;
            long pid = dir.header(r).pid();
            try (TraceFileReader reader = dir.reader(r, layer)) {
                while (reader.hasNext()) {
                    out.println(line(reader.next(), pid, csv));
                    n++;
                }
                if (reader.droppedRequests() > 0 && !csv) out.println("# rank " + r + ": " + reader.droppedRequests() + " requests dropped by the tracer");
            } catch (UncheckedIOException e) {
                out.flush();
                throw e.getCause();
            }
        }
        out.flush();
        return n;
    }
}
