package io.pdla.bench.online;

import io.pdla.access.IoOp;
import io.pdla.patterns.online.OnlineSettings;
import io.pdla.patterns.template.MatcherConfig;
import io.pdla.patterns.template.StreamMatcher;

import java.util.SplittableRandom;

/**
 * What online PDLA's matching holds and costs per rank (issue 35: "the online matcher's CPU and memory per rank"):
 * the offline analyzer's {@link StreamMatcher}, which the online interceptor runs for each open file of each rank,
 * fed a full window ({@link OnlineSettings#DEFAULT_WINDOW} requests) of three shapes: IOR's 16 KiB strided stream,
 * a 4 KiB sequential one, and random 4 KiB offsets (the matcher's worst case: nothing repeats). Prints, per shape, the
 * heap a matcher holds after its window (the heap after a full GC with {@code N} matchers alive, over {@code N}) and
 * the CPU per request once the JIT has compiled the matcher (a warm steady state; a job's first pass runs it
 * interpreted, which {@code bench/online-pdla}'s matcher line measures in a real job).
 *
 * <p>Usage: {@code java -cp cli/target/pdla.jar io.pdla.bench.online.MatcherFootprint [N]} (default N = 200).
 */
public final class MatcherFootprint {
    private MatcherFootprint() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int window = OnlineSettings.DEFAULT_WINDOW;
        System.out.printf("window %d requests per open file per rank; %d matchers per shape%n", window, n);
        System.out.printf("%-22s %14s %16s%n", "shape", "held (bytes)", "CPU (ns/request)");
        for (String shape : new String[]{"strided 16 KiB x 4", "sequential 4 KiB", "random 4 KiB"}) {
            for (int warm = 0; warm < 3; warm++) feed(new StreamMatcher(0, 0, MatcherConfig.defaults()), shape, window, warm);
            long before = heapAfterGc();
            StreamMatcher[] held = new StreamMatcher[n];
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                held[i] = new StreamMatcher(0, i, MatcherConfig.defaults());
                feed(held[i], shape, window, i);
            }
            long ns = System.nanoTime() - t0;
            long after = heapAfterGc();
            System.out.printf("%-22s %14d %16.1f%n", shape, (after - before) / n, (double) ns / ((long) n * window));
            if (held[n - 1] == null) throw new AssertionError(); // keeps the matchers alive until measured
        }
    }

    private static void feed(StreamMatcher m, String shape, int window, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long t = 0;
        for (int k = 0; k < window; k++) {
            long offset = switch (shape) {
                case "strided 16 KiB x 4" -> (long) k * 4 * 16384;
                case "sequential 4 KiB" -> (long) k * 4096;
                default -> random.nextLong(1L << 30) & ~4095L;
            };
            long length = shape.startsWith("strided") ? 16384 : 4096;
            m.accept(IoOp.READ, offset, length, t, t + 1000);
            t += 2000;
        }
    }

    private static long heapAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) System.gc();
        return rt.totalMemory() - rt.freeMemory();
    }
}
