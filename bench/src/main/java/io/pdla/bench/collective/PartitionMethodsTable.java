package io.pdla.bench.collective;

import io.pdla.access.Extent;
import io.pdla.access.ExtentList;
import io.pdla.delegate.partition.FileDomains;
import io.pdla.delegate.partition.PartitionMethod;
import io.pdla.delegate.partition.PartitionRequest;
import io.pdla.simpfs.config.NetworkParams;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.ServerClass;
import io.pdla.simpfs.timing.Request;
import io.pdla.simpfs.timing.RequestStream;
import io.pdla.simpfs.timing.ServerStats;
import io.pdla.simpfs.timing.SimResult;
import io.pdla.simpfs.timing.TimingEngine;
import io.pdla.simpfs.timing.Workload;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Liao and Choudhary's comparison on sim-pfs virtual time: the write phase of one collective call, after the
 * exchange, for each file-domain partitioning method and P = S, 2S and a P coprime to S. The ranks' requests
 * form one contiguous aggregate region (each rank a contiguous block); each aggregator, on its own client node,
 * writes its domain in ascending order, one request per contiguous piece of at most cb_buffer_size bytes, or
 * one per stripe with stripe-size I/O. The exchange between ranks and aggregators is MPI traffic that sim-pfs
 * does not model, so it is the same for every row and left out. Extent-lock revocations cost
 * {@code revocationMs} each, and a request waits for all its locks before its I/O (seed 004).
 */
public final class PartitionMethodsTable {
    /** What one table is run with. */
    public record Options(int servers, int ranks, long perRankBytes, long stripeBytes, long bufferBytes, double revocationMs,
                          int[] aggregatorCounts) {
        public Options {
            if (servers < 1) throw new IllegalArgumentException("--hservers must be >= 1, was " + servers);
            if (ranks < 1) throw new IllegalArgumentException("-np must be >= 1, was " + ranks);
            if (perRankBytes < 1) throw new IllegalArgumentException("--per-rank must be >= 1, was " + perRankBytes);
            if (stripeBytes < 1) throw new IllegalArgumentException("--stripe must be >= 1, was " + stripeBytes);
            if (bufferBytes < 1) throw new IllegalArgumentException("--buffer must be >= 1, was " + bufferBytes);
            if (!(revocationMs >= 0)) throw new IllegalArgumentException("--revoke-ms must be >= 0, was " + revocationMs);
            for (int p : aggregatorCounts) {
                if (p < 1) throw new IllegalArgumentException("aggregator counts must be >= 1, got " + p);
            }
        }

        /** S = 8 servers, 64 ranks of 8 MiB (1 MiB stripes), P = 8, 16 and 5, 16 MiB buffers, 1 ms per revocation. */
        public static Options defaults() {
            return new Options(8, 64, 8L << 20, 1L << 20, 16L << 20, 1.0, new int[]{8, 16, 5});
        }
    }

    /** One row: a method (with or without stripe-size I/O) at one aggregator count. */
    public record Row(String method, int aggregators, double writeMiBps, long maxConflictsPerServer, double meanConflictsPerServer,
                      int maxAggregatorsPerServer, double meanAggregatorsPerServer, long requests) {
    }

    private PartitionMethodsTable() {
    }

    public static List<Row> run(Options o) {
        List<Row> rows = new ArrayList<>();
        for (int p : o.aggregatorCounts()) {
            for (PartitionMethod m : PartitionMethod.values()) {
                rows.add(row(o, m, p, false));
                if (m == PartitionMethod.STRIPE_ALIGNED) rows.add(row(o, m, p, true));
            }
        }
        return rows;
    }

    static Row row(Options o, PartitionMethod method, int aggregators, boolean stripeSizeIo) {
        long region = o.ranks() * o.perRankBytes();
        FileDomains domains = FileDomains.partition(method, PartitionRequest.of(0, region, o.stripeBytes(), o.servers(), aggregators));
        List<List<Extent>> writes = new ArrayList<>();
        long requests = 0;
        for (int a = 0; a < aggregators; a++) {
            List<Extent> mine = stripeSizeIo
                    ? FileDomains.splitAtStripes(domains.domain(a), o.stripeBytes())
                    : bufferedPieces(domains.domain(a), o.bufferBytes());
            writes.add(mine);
            requests += mine.size();
        }
        SimPfsConfig config = SimPfsConfig.builder().hservers(o.servers()).sservers(0)
                .network(new NetworkParams(NetworkParams.DEFAULT.setupUs(), NetworkParams.DEFAULT.linkMBps(), 1))
                .extentLocks(true).build();
        Layout layout = Layout.oneDH(ServerClass.HDD, o.stripeBytes());
        String name = method.hintValue() + (stripeSizeIo ? "+stripe_size_io" : "");
        SimResult r = new TimingEngine(config, o.revocationMs() / 1000).run(new AggregatorWrites(name, layout, writes));
        List<ServerStats> touched = r.servers().stream().filter(s -> s.subRequests() > 0).toList();
        return new Row(name, aggregators, r.writeBandwidthMiBps(),
                touched.stream().mapToLong(ServerStats::maxLockConflictsPerCall).max().orElse(0),
                touched.stream().mapToLong(ServerStats::maxLockConflictsPerCall).average().orElse(0),
                touched.stream().mapToInt(ServerStats::maxClientsPerCall).max().orElse(0),
                touched.stream().mapToInt(ServerStats::maxClientsPerCall).average().orElse(0), requests);
    }

    /** A domain's extents cut into pieces of at most one collective buffer: ROMIO's rounds. */
    static List<Extent> bufferedPieces(ExtentList domain, long buffer) {
        List<Extent> out = new ArrayList<>();
        for (int i = 0; i < domain.size(); i++) {
            for (long off = domain.offset(i), end = off + domain.length(i); off < end; off += buffer) {
                out.add(new Extent(off, Math.min(buffer, end - off)));
            }
        }
        return out;
    }

    public static void print(Options o, List<Row> rows, PrintWriter out) {
        out.printf(Locale.ROOT, "File-domain partitioning on sim-pfs: %d HDD servers, %d KiB stripes, %d ranks x %d MiB contiguous "
                        + "(%d MiB region), cb_buffer_size %d MiB, %.2f ms per lock revocation, one collective write call%n",
                o.servers(), o.stripeBytes() >> 10, o.ranks(), o.perRankBytes() >> 20, o.ranks() * o.perRankBytes() >> 20,
                o.bufferBytes() >> 20, o.revocationMs());
        out.printf(Locale.ROOT, "%-30s %4s %12s %22s %24s %9s%n", "method", "P", "write MiB/s", "conflicts/server max", "aggregators/server max",
                "requests");
        out.printf(Locale.ROOT, "%-30s %4s %12s %22s %24s %9s%n", "", "", "(virtual)", "(mean)", "(mean)", "");
        for (Row r : rows) {
            out.printf(Locale.ROOT, "%-30s %4d %12.1f %14d (%5.2f) %16d (%5.2f) %9d%n", r.method(), r.aggregators(), r.writeMiBps(),
                    r.maxConflictsPerServer(), r.meanConflictsPerServer(), r.maxAggregatorsPerServer(), r.meanAggregatorsPerServer(), r.requests());
        }
        out.flush();
    }

    /** P aggregators, each writing its pieces in order: one collective call's I/O phase. */
    private record AggregatorWrites(String name, Layout layout, List<List<Extent>> writes) implements Workload {
        @Override
        public String description() {
            return "collective write, " + name + ", " + writes.size() + " aggregators";
        }

        @Override
        public int ranks() {
            return writes.size();
        }

        @Override
        public List<Layout> files() {
            return List.of(layout);
        }

        @Override
        public long rotation(int file) {
            return 0;   // stripe k on server k mod S, as the partitioner assumes
        }

        @Override
        public RequestStream stream(int rank) {
            List<Extent> mine = writes.get(rank);
            int[] next = {0};
            return into -> {
                if (next[0] == mine.size()) return false;
                Extent e = mine.get(next[0]++);
                into.set(Request.Kind.WRITE, 0).add(e.offset(), e.length());
                return true;
            };
        }
    }
}
