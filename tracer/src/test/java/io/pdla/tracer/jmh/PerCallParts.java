package io.pdla.tracer.jmh;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.tracer.counters.FileCounters;
import io.pdla.tracer.format.ByteArraySink;
import io.pdla.tracer.format.TraceEncoder;

/**
 * A rough breakdown of the tracer's per-call cost (not JMH: plain loops, for orientation only): counters
 * of both modules, run encoding, and one clock read. Run with the test classpath:
 * {@code java -cp ... io.pdla.tracer.jmh.PerCallParts}.
 */
public final class PerCallParts {
    private PerCallParts() {
    }

    public static void main(String[] args) {
        int n = 5_000_000;
        ExtentList[] acc = new ExtentList[4096];
        for (int i = 0; i < acc.length; i++) acc[i] = ExtentList.of(i * 8192L % (64L << 20), 4096);
        for (int round = 0; round < 5; round++) {
            FileCounters counters = new FileCounters(0, 1, "/x", "/", "ext4", 4096);
            long t = 0;
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                t += 100;
                counters.data(IoOp.WRITE, false, acc[i & 4095], 4096, t, t + 50);
            }
            long t1 = System.nanoTime();
            ByteArraySink sink = new ByteArraySink();
            TraceEncoder enc = new TraceEncoder(sink);
            enc.file(1, "/x");
            t = 0;
            long t2 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                t += 100 + i % 7;
                enc.add(3, 1, acc[i & 4095].offset(0), 4096, t, t + 50 + i % 3);
            }
            long t3 = System.nanoTime();
            long sum = 0;
            for (int i = 0; i < n; i++) sum += System.nanoTime();
            long t4 = System.nanoTime();
            System.out.printf("counters %.1f ns/call, encoder %.1f ns/call, nanoTime %.1f ns (%d trace bytes, %d)%n",
                    (t1 - t0) / (double) n, (t3 - t2) / (double) n, (t4 - t3) / (double) n, sink.size(), sum & 1);
        }
    }
}
