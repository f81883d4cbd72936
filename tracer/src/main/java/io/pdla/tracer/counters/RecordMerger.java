package io.pdla.tracer.counters;

import io.pdla.darshan.Counter;
import io.pdla.darshan.Merge;

import java.util.List;

import static io.pdla.darshan.MpiioCounter.*;
import static io.pdla.darshan.MpiioFCounter.*;
import static io.pdla.darshan.PosixCounter.*;
import static io.pdla.darshan.PosixFCounter.*;

/**
 * The shared-file reduction across ranks into one rank -1 record, as Darshan's runtime does it at MPI_Finalize
 * ({@code posix/mpiio_record_reduction_op}); the tracer has no communicator, so its reader does it. Counters merge by
 * their {@link Merge} rule; the {@link Merge#RECORD} ones are handled here together with their partners. Totals over
 * a module's records ({@code --total}) are darshan-util's, {@link io.pdla.darshan.CounterTotals}.
 */
public final class RecordMerger {
    /** Which counters of a module play the partner roles. */
    private record Roles(Counter bytesRead, Counter bytesWritten, Counter readTime, Counter writeTime, Counter metaTime,
                         Counter maxReadTime, Counter maxReadSize, Counter maxWriteTime, Counter maxWriteSize,
                         Counter fastestRank, Counter fastestBytes, Counter fastestTime,
                         Counter slowestRank, Counter slowestBytes, Counter slowestTime,
                         Counter varianceTime, Counter varianceBytes, List<Counter[]> tables) {
    }

    private static final Roles POSIX_ROLES = new Roles(POSIX_BYTES_READ, POSIX_BYTES_WRITTEN, POSIX_F_READ_TIME,
            POSIX_F_WRITE_TIME, POSIX_F_META_TIME, POSIX_F_MAX_READ_TIME, POSIX_MAX_READ_TIME_SIZE, POSIX_F_MAX_WRITE_TIME,
            POSIX_MAX_WRITE_TIME_SIZE, POSIX_FASTEST_RANK, POSIX_FASTEST_RANK_BYTES, POSIX_F_FASTEST_RANK_TIME,
            POSIX_SLOWEST_RANK, POSIX_SLOWEST_RANK_BYTES, POSIX_F_SLOWEST_RANK_TIME, POSIX_F_VARIANCE_RANK_TIME,
            POSIX_F_VARIANCE_RANK_BYTES, List.of(
                    new Counter[]{POSIX_STRIDE1_STRIDE, POSIX_STRIDE2_STRIDE, POSIX_STRIDE3_STRIDE, POSIX_STRIDE4_STRIDE},
                    new Counter[]{POSIX_STRIDE1_COUNT, POSIX_STRIDE2_COUNT, POSIX_STRIDE3_COUNT, POSIX_STRIDE4_COUNT},
                    new Counter[]{POSIX_ACCESS1_ACCESS, POSIX_ACCESS2_ACCESS, POSIX_ACCESS3_ACCESS, POSIX_ACCESS4_ACCESS},
                    new Counter[]{POSIX_ACCESS1_COUNT, POSIX_ACCESS2_COUNT, POSIX_ACCESS3_COUNT, POSIX_ACCESS4_COUNT}));
    private static final Roles MPIIO_ROLES = new Roles(MPIIO_BYTES_READ, MPIIO_BYTES_WRITTEN, MPIIO_F_READ_TIME,
            MPIIO_F_WRITE_TIME, MPIIO_F_META_TIME, MPIIO_F_MAX_READ_TIME, MPIIO_MAX_READ_TIME_SIZE, MPIIO_F_MAX_WRITE_TIME,
            MPIIO_MAX_WRITE_TIME_SIZE, MPIIO_FASTEST_RANK, MPIIO_FASTEST_RANK_BYTES, MPIIO_F_FASTEST_RANK_TIME,
            MPIIO_SLOWEST_RANK, MPIIO_SLOWEST_RANK_BYTES, MPIIO_F_SLOWEST_RANK_TIME, MPIIO_F_VARIANCE_RANK_TIME,
            MPIIO_F_VARIANCE_RANK_BYTES, List.of(
                    new Counter[]{MPIIO_ACCESS1_ACCESS, MPIIO_ACCESS2_ACCESS, MPIIO_ACCESS3_ACCESS, MPIIO_ACCESS4_ACCESS},
                    new Counter[]{MPIIO_ACCESS1_COUNT, MPIIO_ACCESS2_COUNT, MPIIO_ACCESS3_COUNT, MPIIO_ACCESS4_COUNT}));

    private RecordMerger() {
    }

    private static Roles roles(Module m) {
        return m.posixCounters() ? POSIX_ROLES : MPIIO_ROLES;
    }

    /** A rank's bytes read + written. */
    public static long bytes(TracedRecord r) {
        Roles x = roles(r.module());
        return r.get(x.bytesRead) + r.get(x.bytesWritten);
    }

    /** A rank's read + write + meta time, the time Darshan ranks ranks by. */
    public static double ioTime(TracedRecord r) {
        Roles x = roles(r.module());
        return r.getF(x.readTime) + r.getF(x.writeTime) + r.getF(x.metaTime);
    }

    /**
     * The rank -1 record of a file that every rank touched (Darshan's posix/mpiio_record_reduction_op):
     * sums, min/max timestamps, the slowest op with its size, merged common values, fastest and slowest rank
     * with their bytes and time, and the population variance of per-rank time and bytes.
     */
    public static TracedRecord reduceShared(List<TracedRecord> perRank) {
        if (perRank.isEmpty()) throw new IllegalArgumentException("nothing to reduce");
        Roles x = roles(perRank.get(0).module());
        TracedRecord acc = null;
        double sumT = 0, sumT2 = 0, sumB = 0, sumB2 = 0;
        for (TracedRecord r : perRank) {
            TracedRecord p = r.withRank(-1);
            long bytes = bytes(r);
            double time = ioTime(r);
            p.set(x.fastestRank, r.rank());
            p.set(x.fastestBytes, bytes);
            p.setF(x.fastestTime, time);
            p.set(x.slowestRank, r.rank());
            p.set(x.slowestBytes, bytes);
            p.setF(x.slowestTime, time);
            sumT += time;
            sumT2 += time * time;
            sumB += bytes;
            sumB2 += (double) bytes * bytes;
            if (acc == null) acc = p;
            else mergeInto(acc, p);
        }
        int n = perRank.size();
        acc.setF(x.varianceTime, Math.max(0, sumT2 / n - (sumT / n) * (sumT / n)));
        acc.setF(x.varianceBytes, Math.max(0, sumB2 / n - (sumB / n) * (sumB / n)));
        return acc;
    }

    /** Folds {@code in} into {@code acc} (same module). */
    static void mergeInto(TracedRecord acc, TracedRecord in) {
        if (acc.module() != in.module()) throw new IllegalArgumentException("cannot merge " + in + " into " + acc);
        Module m = acc.module();
        long[] a = acc.rawCounters(), b = in.rawCounters();
        for (Counter c : m.counters()) {
            int i = c.ordinal();
            switch (c.merge()) {
                case SUM -> a[i] = a[i] + b[i] < 0 ? -1 : a[i] + b[i];
                case MAX -> a[i] = Math.max(a[i], b[i]);
                case MIN_NONZERO -> a[i] = a[i] == 0 ? b[i] : b[i] == 0 ? a[i] : Math.min(a[i], b[i]);
                case COPY -> a[i] = b[i];
                case RECORD -> {
                }
            }
        }
        double[] fa = acc.rawFCounters(), fb = in.rawFCounters();
        for (Counter c : m.fcounters()) {
            int i = c.ordinal();
            switch (c.merge()) {
                case SUM -> fa[i] += fb[i];
                case MAX -> fa[i] = Math.max(fa[i], fb[i]);
                case MIN_NONZERO -> fa[i] = fa[i] == 0 ? fb[i] : fb[i] == 0 ? fa[i] : Math.min(fa[i], fb[i]);
                case COPY -> fa[i] = fb[i];
                case RECORD -> {
                }
            }
        }
        Roles x = roles(m);
        if (in.getF(x.maxReadTime) > acc.getF(x.maxReadTime)) {
            acc.setF(x.maxReadTime, in.getF(x.maxReadTime));
            acc.set(x.maxReadSize, in.get(x.maxReadSize));
        }
        if (in.getF(x.maxWriteTime) > acc.getF(x.maxWriteTime)) {
            acc.setF(x.maxWriteTime, in.getF(x.maxWriteTime));
            acc.set(x.maxWriteSize, in.get(x.maxWriteSize));
        }
        for (int t = 0; t < x.tables.size(); t += 2) CommonValues.merge(acc, in, x.tables.get(t), x.tables.get(t + 1));
        if (in.getF(x.fastestTime) < acc.getF(x.fastestTime)) {
            acc.set(x.fastestRank, in.get(x.fastestRank));
            acc.set(x.fastestBytes, in.get(x.fastestBytes));
            acc.setF(x.fastestTime, in.getF(x.fastestTime));
        }
        if (in.getF(x.slowestTime) > acc.getF(x.slowestTime)) {
            acc.set(x.slowestRank, in.get(x.slowestRank));
            acc.set(x.slowestBytes, in.get(x.slowestBytes));
            acc.setF(x.slowestTime, in.getF(x.slowestTime));
        }
    }
}
