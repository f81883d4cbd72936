package io.pdla.cli;

import io.pdla.access.TraceRecord;
import io.pdla.bench.schemes.SchemeComparison;
import io.pdla.bench.schemes.SchemeWorkloads;
import io.pdla.darshan.Compression;
import io.pdla.darshan.DarshanJob;
import io.pdla.darshan.DarshanWriter;
import io.pdla.darshan.DxtRecord;
import io.pdla.darshan.Mount;
import io.pdla.patterns.TraceSource;
import io.pdla.size.ByteSize;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A generated workload of {@code pdla bench matrix} as the Darshan log an application running it would leave: per rank,
 * its writes then its reads of one shared file, as DXT_POSIX and DXT_MPIIO segments (pdla's {@link DarshanWriter}).
 * {@code pdla what-if} on such a log must predict what the matrix predicts for the workload. {@link #main} writes
 * one for bench/RESULTS-online.md:
 * {@code java -cp cli/target/test-classes:cli/target/pdla.jar io.pdla.cli.IorDarshanLogs PROCS SIZE COUNT OUT.darshan}.
 */
final class IorDarshanLogs {
    private IorDarshanLogs() {}

    /** IOR fixed stride (stride 2 x size), {@code count} requests per rank, written then read back. */
    static byte[] iorFixedStride(String path, int procs, long size, long count, Compression compression) {
        return log(path, SchemeWorkloads.iorFixedStride(procs, size, 2 * size, count), procs,
                "./ior -a MPIIO -t " + ByteSize.format(size) + " -s " + count, compression);
    }

    static byte[] log(String path, SchemeComparison.WorkloadSpec w, int procs, String exe, Compression compression) {
        long id = 0x10a0000000000001L;
        List<DxtRecord> dxt = new ArrayList<>();
        for (int rank : w.read().ranks()) dxt.add(record(id, rank, w.write(), w.read()));
        DarshanJob job = new DarshanJob(1000, 1_700_200_000L, 0, 1_700_200_060L, 0, procs, 77, "lib_ver=pdla\n", exe,
                List.of(new Mount("/scratch", "lustre"), new Mount("/", "ext4")));
        return DarshanWriter.write(new DarshanWriter.Content(job, Map.of(id, path), List.of(), List.of(), dxt, dxt), compression);
    }

    private static DxtRecord record(long id, int rank, TraceSource writes, TraceSource reads) {
        List<TraceRecord> w = list(writes.records(rank)), r = list(reads.records(rank));
        int n = w.size() + r.size();
        long[] off = new long[n], len = new long[n];
        double[] start = new double[n], end = new double[n];
        // the writes come first in time, the reads after them, as an application that writes its data and reads it back
        double readsAfter = w.isEmpty() ? 0 : w.get(w.size() - 1).endNanos() / 1e9 + 1;
        for (int i = 0; i < n; i++) {
            TraceRecord t = i < w.size() ? w.get(i) : r.get(i - w.size());
            double shift = i < w.size() ? 0 : readsAfter;
            off[i] = t.offset();
            len[i] = t.length();
            start[i] = shift + t.startNanos() / 1e9;
            end[i] = shift + t.endNanos() / 1e9;
        }
        return new DxtRecord(id, rank, "node" + rank / 4, w.size(), r.size(), off, len, start, end, new long[n]);
    }

    private static List<TraceRecord> list(Iterator<TraceRecord> it) {
        List<TraceRecord> l = new ArrayList<>();
        it.forEachRemaining(t -> { if (t.op().movesData()) l.add(t); });
        return l;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            System.err.println("usage: IorDarshanLogs PROCS SIZE COUNT OUT.darshan   (IOR fixed stride, stride 2 x SIZE, COUNT requests per rank)");
            System.exit(2);
        }
        byte[] log = iorFixedStride("/scratch/ior/shared.dat", Integer.parseInt(args[0]), ByteSize.parse(args[1], "SIZE"), Long.parseLong(args[2]),
                Compression.ZLIB);
        Files.write(Path.of(args[3]), log);
    }
}
