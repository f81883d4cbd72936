package io.pdla.tracer.counters;

import io.pdla.access.IoOp;
import io.pdla.tracer.testing.TracedJob.Expected;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Darshan's counter definitions computed a second, deliberately naive way, straight from the list of
 * requests a workload issued: whole-list passes instead of incremental state, global frequency sorts
 * instead of the online top-4 table, threshold tests written as darshan-posix.c writes them.
 */
final class NaiveCounters {
    private NaiveCounters() {
    }

    static Map<String, Long> posix(List<Expected> requests, long fileAlignment) {
        return posix(requests, fileAlignment, 1);
    }

    /** With {@code storeOpens} descriptors opened by the driver for each MPI-IO open: POSIX_OPENS counts those. */
    static Map<String, Long> posix(List<Expected> requests, long fileAlignment, int storeOpens) {
        Map<String, Long> c = new LinkedHashMap<>();
        List<Expected> data = requests.stream().filter(r -> r.op().movesData()).toList();
        List<Expected> reads = data.stream().filter(r -> r.op() == IoOp.READ).toList();
        List<Expected> writes = data.stream().filter(r -> r.op() == IoOp.WRITE).toList();
        c.put("POSIX_OPENS", storeOpens * requests.stream().filter(r -> r.op() == IoOp.OPEN).count());
        c.put("POSIX_READS", (long) reads.size());
        c.put("POSIX_WRITES", (long) writes.size());
        c.put("POSIX_FSYNCS", requests.stream().filter(r -> r.op() == IoOp.SYNC).count());
        c.put("POSIX_BYTES_READ", reads.stream().mapToLong(Expected::length).sum());
        c.put("POSIX_BYTES_WRITTEN", writes.stream().mapToLong(Expected::length).sum());
        c.put("POSIX_MAX_BYTE_READ", reads.stream().mapToLong(r -> r.offset() + r.length() - 1).max().orElse(0));
        c.put("POSIX_MAX_BYTE_WRITTEN", writes.stream().mapToLong(r -> r.offset() + r.length() - 1).max().orElse(0));
        long[] rs = seqConsec(reads), ws = seqConsec(writes);
        c.put("POSIX_CONSEC_READS", rs[1]);
        c.put("POSIX_CONSEC_WRITES", ws[1]);
        c.put("POSIX_SEQ_READS", rs[0]);
        c.put("POSIX_SEQ_WRITES", ws[0]);
        long switches = 0;
        for (int i = 1; i < data.size(); i++) if (data.get(i).op() != data.get(i - 1).op()) switches++;
        c.put("POSIX_RW_SWITCHES", switches);
        c.put("POSIX_FILE_NOT_ALIGNED", data.stream().filter(r -> r.offset() % fileAlignment != 0).count());
        String[] bins = {"0_100", "100_1K", "1K_10K", "10K_100K", "100K_1M", "1M_4M", "4M_10M", "10M_100M", "100M_1G", "1G_PLUS"};
        for (String b : bins) {
            c.put("POSIX_SIZE_READ_" + b, reads.stream().filter(r -> bin(r.length()).equals(b)).count());
            c.put("POSIX_SIZE_WRITE_" + b, writes.stream().filter(r -> bin(r.length()).equals(b)).count());
        }
        List<Long> strides = new ArrayList<>();
        strides.addAll(strides(reads));
        strides.addAll(strides(writes));
        // strides are kept per kind in one table, in op order; order does not matter for frequencies
        top4(c, "POSIX_STRIDE", "_STRIDE", strides);
        top4(c, "POSIX_ACCESS", "_ACCESS", data.stream().map(Expected::length).toList());
        return c;
    }

    static Map<String, Long> mpiio(List<Expected> requests, int amode) {
        Map<String, Long> c = new LinkedHashMap<>();
        Map<Long, List<Expected>> calls = requests.stream().filter(r -> r.op().movesData())
                .collect(Collectors.groupingBy(Expected::call, LinkedHashMap::new, Collectors.toList()));
        List<Expected> firstOfCall = calls.values().stream().map(l -> l.get(0)).toList();
        Function<List<Expected>, Long> size = l -> l.stream().mapToLong(Expected::length).sum();
        c.put("MPIIO_INDEP_READS", firstOfCall.stream().filter(r -> r.op() == IoOp.READ && !r.collective()).count());
        c.put("MPIIO_INDEP_WRITES", firstOfCall.stream().filter(r -> r.op() == IoOp.WRITE && !r.collective()).count());
        c.put("MPIIO_COLL_READS", firstOfCall.stream().filter(r -> r.op() == IoOp.READ && r.collective()).count());
        c.put("MPIIO_COLL_WRITES", firstOfCall.stream().filter(r -> r.op() == IoOp.WRITE && r.collective()).count());
        c.put("MPIIO_SYNCS", requests.stream().filter(r -> r.op() == IoOp.SYNC).count());
        c.put("MPIIO_VIEWS", requests.stream().filter(r -> r.op() == IoOp.SET_VIEW).count());
        c.put("MPIIO_MODE", (long) amode);
        c.put("MPIIO_BYTES_READ", calls.values().stream().filter(l -> l.get(0).op() == IoOp.READ).mapToLong(size::apply).sum());
        c.put("MPIIO_BYTES_WRITTEN", calls.values().stream().filter(l -> l.get(0).op() == IoOp.WRITE).mapToLong(size::apply).sum());
        long switches = 0;
        for (int i = 1; i < firstOfCall.size(); i++) if (firstOfCall.get(i).op() != firstOfCall.get(i - 1).op()) switches++;
        c.put("MPIIO_RW_SWITCHES", switches);
        String[] bins = {"0_100", "100_1K", "1K_10K", "10K_100K", "100K_1M", "1M_4M", "4M_10M", "10M_100M", "100M_1G", "1G_PLUS"};
        for (String b : bins) {
            c.put("MPIIO_SIZE_READ_AGG_" + b, calls.values().stream().filter(l -> l.get(0).op() == IoOp.READ && bin(size.apply(l)).equals(b)).count());
            c.put("MPIIO_SIZE_WRITE_AGG_" + b, calls.values().stream().filter(l -> l.get(0).op() == IoOp.WRITE && bin(size.apply(l)).equals(b)).count());
        }
        top4(c, "MPIIO_ACCESS", "_ACCESS", calls.values().stream().map(size).toList());
        return c;
    }

    /** {seq, consec} with Darshan's initial last byte of 0 (an access at offset 0 is neither). */
    private static long[] seqConsec(List<Expected> ops) {
        long seq = 0, consec = 0;
        for (int i = 0; i < ops.size(); i++) {
            long lastByte = i == 0 ? 0 : ops.get(i - 1).offset() + ops.get(i - 1).length() - 1;
            if (ops.get(i).offset() > lastByte) seq++;
            if (ops.get(i).offset() == lastByte + 1) consec++;
        }
        return new long[]{seq, consec};
    }

    private static List<Long> strides(List<Expected> ops) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            long lastByte = i == 0 ? 0 : ops.get(i - 1).offset() + ops.get(i - 1).length() - 1;
            long off = ops.get(i).offset();
            out.add(off > lastByte && lastByte != 0 ? off - lastByte - 1 : 0);
        }
        return out;
    }

    private static String bin(long n) {
        if (n < 101) return "0_100";
        if (n < 1025) return "100_1K";
        if (n < 10241) return "1K_10K";
        if (n < 102401) return "10K_100K";
        if (n < 1048577) return "100K_1M";
        if (n < 4194305) return "1M_4M";
        if (n < 10485761) return "4M_10M";
        if (n < 104857601) return "10M_100M";
        if (n < 1073741825) return "100M_1G";
        return "1G_PLUS";
    }

    private static void top4(Map<String, Long> c, String prefix, String valueSuffix, List<Long> values) {
        Map<Long, Long> freq = values.stream().filter(v -> v != 0).collect(Collectors.groupingBy(v -> v, Collectors.counting()));
        List<Map.Entry<Long, Long>> sorted = new ArrayList<>(freq.entrySet());
        sorted.sort(Comparator.comparing((Map.Entry<Long, Long> e) -> e.getValue()).thenComparing(Map.Entry::getKey).reversed());
        for (int i = 0; i < 4; i++) {
            c.put(prefix + (i + 1) + valueSuffix, i < sorted.size() ? sorted.get(i).getKey() : 0L);
            c.put(prefix + (i + 1) + "_COUNT", i < sorted.size() ? sorted.get(i).getValue() : 0L);
        }
    }
}
