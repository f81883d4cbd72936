package io.pdla.bench.jmh;

import io.pdla.access.ExtentList;
import io.pdla.delegate.partition.FileDomains;
import io.pdla.delegate.partition.PartitionMethod;
import io.pdla.delegate.partition.PartitionRequest;
import io.pdla.delegate.partition.RequestSplit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The planning cost of one collective call for a whole job: partition the aggregate region and split every
 * rank's request by domain owner (what all ranks together compute before the exchange). 1,024 ranks with
 * 1,000 pieces of 16 KiB each, either IOR-like strided (piece i of rank r at {@code (i * ranks + r) * 16 KiB})
 * or random offsets in random order over the same 16 GiB region; 1 MiB stripes on 8 servers, 64 aggregators.
 * Target (issue 12): under 50 ms per call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PartitionBenchmark {
    private static final int RANKS = 1024;
    private static final int PIECES = 1000;
    private static final long PIECE = 16 * 1024;
    private static final long STRIPE = 1 << 20;
    private static final int SERVERS = 8;
    private static final int AGGREGATORS = 64;

    @Param({"even", "stripe_aligned", "static_cyclic", "group_cyclic", "transpose"})
    public String method;

    @Param({"strided", "random"})
    public String pattern;

    private ExtentList[] requests;
    private PartitionRequest request;
    private PartitionMethod partitionMethod;

    @Setup(Level.Trial)
    public void requests() {
        partitionMethod = PartitionMethod.fromHint(method);
        long region = RANKS * PIECES * PIECE;
        Random random = new Random(12);
        requests = new ExtentList[RANKS];
        for (int r = 0; r < RANKS; r++) {
            ExtentList.Builder b = ExtentList.builder(PIECES);
            for (int i = 0; i < PIECES; i++) {
                long offset = pattern.equals("strided")
                        ? ((long) i * RANKS + r) * PIECE
                        : (long) (random.nextDouble() * (region - PIECE));
                b.add(offset, PIECE);
            }
            requests[r] = b.build();
        }
        request = PartitionRequest.of(0, region, STRIPE, SERVERS, AGGREGATORS);
    }

    @Benchmark
    public long planCollectiveCall() {
        FileDomains domains = FileDomains.partition(partitionMethod, request);
        long pieces = 0;
        for (ExtentList rank : requests) {
            RequestSplit split = RequestSplit.of(rank, domains);
            for (int a = 0; a < AGGREGATORS; a++) pieces += split.pieces(a);
        }
        return pieces;
    }
}
