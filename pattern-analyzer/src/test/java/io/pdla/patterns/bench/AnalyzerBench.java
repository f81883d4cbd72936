package io.pdla.patterns.bench;

import io.pdla.access.IoOp;
import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.Analyzer;
import io.pdla.patterns.TraceSource;
import io.pdla.patterns.db.CrashWriter;
import io.pdla.patterns.db.PatternDatabase;
import io.pdla.patterns.db.PatternEntry;
import io.pdla.patterns.rootcause.CriticalPath;
import io.pdla.patterns.rootcause.FileIoStats;
import io.pdla.patterns.rootcause.SweepLine;
import io.pdla.patterns.synth.SyntheticTraces;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Throughput figures for bench/RESULTS-pattern-analyzer.md. Not a test: run with
 * {@code java -cp ... io.pdla.patterns.bench.AnalyzerBench [requestsPerRun] [bigRun]}.
 */
public final class AnalyzerBench {
    public static void main(String[] args) throws Exception {
        long n = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        long big = args.length > 1 ? Long.parseLong(args[1]) : 0;
        if (args.length > 2 && args[2].equals("db")) {
            db(20_000);
            return;
        }
        if (args.length > 2 && args[2].equals("store-report")) {
            for (int i = 0; i < Integer.getInteger("reps", 3); i++) storeReport(1024, 64); // the first includes JIT warm-up of JE and Jackson
            return;
        }
        int procs = 16;
        long perRank = n / procs;
        bench("IOR strided (b=t=64KiB)", () -> SyntheticTraces.ior(procs, 65536, 65536, perRank, IoOp.WRITE), 3);
        bench("IOR segmented (b=perRank*64KiB)", () -> SyntheticTraces.ior(procs, perRank * 65536, 65536, 1, IoOp.WRITE), 3);
        bench("PIO nested strided (2 levels)", () -> SyntheticTraces.nestedStrided(procs, 4096, procs * 4096L, 64, 128L * procs * 4096, perRank / 64, 4096, IoOp.READ), 3);
        bench("random (IOR -z)", () -> SyntheticTraces.random(procs, 4096, perRank, 1 << 24, 3), 3);
        if (big > 0) {
            long bigPerRank = big / procs;
            Runtime rt = Runtime.getRuntime();
            rt.gc();
            long before = rt.totalMemory() - rt.freeMemory();
            bench("IOR strided, " + big + " requests end to end", () -> SyntheticTraces.ior(procs, 65536, 65536, bigPerRank, IoOp.WRITE), 1);
            rt.gc();
            System.out.printf(Locale.ROOT, "  heap after: %d MiB (before %d MiB)%n", (rt.totalMemory() - rt.freeMemory()) >> 20, before >> 20);
        }
        sweep(1_000_000);
        db(20_000);
    }

    interface Src {
        TraceSource get();
    }

    static void bench(String name, Src src, int runs) {
        double best = Double.MAX_VALUE;
        AnalysisReport r = null;
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            r = new Analyzer().analyze(src.get());
            best = Math.min(best, (System.nanoTime() - t0) / 1e9);
        }
        long req = r.total().requests();
        System.out.printf(Locale.ROOT, "%-45s %,12d requests  %.3f s  %,.0f requests/s  coverage %.1f%%  %d local, %d global%n",
                name, req, best, req / best, 100 * r.total().requestFraction(), r.locals().size(), r.globals().size());
    }

    static void sweep(int files) {
        Random rnd = new Random(1);
        List<FileIoStats> list = new ArrayList<>(files);
        for (int i = 0; i < files; i++) {
            double s = rnd.nextDouble() * 1e5;
            list.add(FileIoStats.interval("f" + i, s, s + rnd.nextDouble() * 10));
        }
        double best = Double.MAX_VALUE;
        CriticalPath cp = null;
        for (int i = 0; i < 5; i++) {
            long t0 = System.nanoTime();
            cp = SweepLine.run(list);
            best = Math.min(best, (System.nanoTime() - t0) / 1e9);
        }
        System.out.printf(Locale.ROOT, "%-45s %,12d files     %.3f s  (%d critical files)%n", "sweep line", files, best, cp.shares().size());
    }

    /** One analysis of an IOR run with many ranks stored in one transaction (what pdla analyze --db does). */
    static void storeReport(int procs, long segments) throws Exception {
        AnalysisReport r = new Analyzer().analyze(SyntheticTraces.ior(procs, 65536, 65536, segments, IoOp.WRITE));
        Path dir = Files.createTempDirectory("pdla-bench-report");
        try (PatternDatabase db = PatternDatabase.open(dir)) {
            long t0 = System.nanoTime();
            int stored = db.storeReport(r);
            double secs = (System.nanoTime() - t0) / 1e9;
            System.out.printf(Locale.ROOT, "storeReport: %d procs, %d entries (+ %d queue items) in one transaction: %.3f s, %,.0f entries/s%n",
                    procs, stored, db.queueLength(), secs, stored / secs);
        }
    }

    static void db(int entries) throws Exception {
        Path dir = Files.createTempDirectory("pdla-bench-db");
        try (PatternDatabase db = PatternDatabase.open(dir)) {
            long t0 = System.nanoTime();
            for (int i = 0; i < entries; i++) db.put(CrashWriter.entry(i));
            double put = (System.nanoTime() - t0) / 1e9;
            t0 = System.nanoTime();
            long found = 0;
            for (int i = 0; i < entries; i++) found += db.get(CrashWriter.entry(i).key()).map(PatternEntry::patterns).map(List::size).orElse(0);
            double get = (System.nanoTime() - t0) / 1e9;
            t0 = System.nanoTime();
            long byFile = 0;
            for (int i = 0; i < entries; i++) byFile += db.byFile(java.net.URI.create("file:///data/file-" + i)).size();
            double sec = (System.nanoTime() - t0) / 1e9;
            t0 = System.nanoTime();
            int deq = 0;
            while (db.dequeue().isPresent()) deq++;
            double dq = (System.nanoTime() - t0) / 1e9;
            System.out.printf(Locale.ROOT, "BDB JE put (1 txn each, COMMIT_SYNC, + enqueue) %,d entries: %.2f s, %,.0f puts/s%n", entries, put, entries / put);
            System.out.printf(Locale.ROOT, "BDB JE get by primary key: %,.0f lookups/s (%d found)%n", entries / get, found);
            System.out.printf(Locale.ROOT, "BDB JE lookup by file (secondary): %,.0f lookups/s (%d found)%n", entries / sec, byFile);
            System.out.printf(Locale.ROOT, "BDB JE dequeue (1 txn each, COMMIT_SYNC): %,.0f dequeues/s (%d)%n", deq / dq, deq);
        }
    }
}
