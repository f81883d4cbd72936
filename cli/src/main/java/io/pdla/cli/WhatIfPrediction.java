package io.pdla.cli;

import io.pdla.access.IoOp;
import io.pdla.access.TraceRecord;
import io.pdla.bench.schemes.Scheme;
import io.pdla.bench.schemes.SchemeComparison;
import io.pdla.costmodel.Op;
import io.pdla.darshan.DarshanLog;
import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.Analyzer;
import io.pdla.patterns.TraceSource;
import io.pdla.patterns.TracedJob;
import io.pdla.simpfs.timing.SimResult;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One file of a Darshan log replayed under the six replication schemes, as {@code pdla bench matrix} replays its
 * generated workloads: through {@link SchemeComparison#phase}, the production path (analysis, replica selection, the
 * replicator's layout planner, sim-pfs layouts, redirect's extent router) timed by sim-pfs's engine. The file's reads
 * and its writes are two phases, as the matrix's read and write phases; each rank issues its requests back to back
 * in the order DXT recorded them (the log's think time is not replayed: the prediction is I/O time).
 */
final class WhatIfPrediction {
    /** One scheme in one phase: predicted virtual seconds and the layout it gives the file's data. */
    record SchemeOutcome(double seconds, double mibPerSecond, String layout) {}

    /**
     * One phase (reads or writes) of a file: its requests, the analysis of them, every scheme's outcome and the notes
     * on how to read them ({@link WhatIfPhaseNotes}).
     */
    record PhaseOutcome(long requests, long bytes, AnalysisReport analysis, int replicatedPatterns, Map<Scheme, SchemeOutcome> schemes,
                        List<String> notes) {}

    /**
     * A predicted file: {@code ranks} is how many ranks have segments of it; {@code read} or {@code write} is null when
     * the file had no request of that kind; {@code order} is set only when it had both.
     */
    record FilePrediction(DxtFileChoice.FileInput file, int ranks, PhaseOutcome read, PhaseOutcome write, ReadWriteOrder order) {
        boolean mixed() { return read != null && write != null; }

        /** The scheme's read time plus its write time: one scheme serves the file's whole run. */
        double totalSeconds(Scheme s) {
            return (read == null ? 0 : read.schemes().get(s).seconds()) + (write == null ? 0 : write.schemes().get(s).seconds());
        }
    }

    private final SchemeComparison comparison;

    WhatIfPrediction(SchemeComparison comparison) {
        this.comparison = comparison;
    }

    FilePrediction predict(DarshanLog log, DxtFileChoice.FileInput file) {
        DarshanTraceSource source = new DarshanTraceSource(log, file.dxt(), id -> id == file.id());
        if (source.ranks().isEmpty()) throw new IllegalArgumentException("its " + file.dxt().module().label() + " records hold no segment");
        int last = source.ranks().last();
        // both numbers come from the log: a rank beyond the job's size is damage, not a reason to replay billions of ranks
        if (last >= log.job().nprocs()) {
            throw new IllegalArgumentException(file.dxt().module().label() + " has segments of rank " + last + " but the log's job had "
                    + log.job().nprocs() + " processes");
        }
        // ranks past the last one with segments would replay empty streams: the times are the same without them
        int ranks = last + 1;
        PhaseOutcome read = phase(file, source, ranks, IoOp.READ), write = phase(file, source, ranks, IoOp.WRITE);
        return new FilePrediction(file, source.ranks().size(), read, write,
                read != null && write != null ? ReadWriteOrder.of(source) : null);
    }

    private PhaseOutcome phase(DxtFileChoice.FileInput file, DarshanTraceSource source, int ranks, IoOp op) {
        OnePhase phase = new OnePhase(source, ranks, op);
        long requests = 0, bytes = 0;
        for (int r = 0; r < ranks; r++) {
            for (Iterator<TraceRecord> it = phase.records(r); it.hasNext(); ) {
                TraceRecord t = it.next();
                requests++;
                bytes += t.length();
            }
        }
        if (requests == 0) return null;
        AnalysisReport analysis = new Analyzer().analyze(phase);
        String name = file.name() + (op == IoOp.READ ? " reads" : " writes");
        SchemeComparison.PhaseResult result = comparison.phase(name, phase, op == IoOp.READ ? Op.READ : Op.WRITE, analysis);
        Map<Scheme, SchemeOutcome> schemes = new LinkedHashMap<>();
        for (Scheme s : Scheme.values()) {
            SimResult r = result.results().get(s);
            double mibps = op == IoOp.READ ? r.readBandwidthMiBps() : r.writeBandwidthMiBps();
            schemes.put(s, new SchemeOutcome(r.elapsedSeconds(), mibps, layout(s, result.plans().get(s))));
        }
        return new PhaseOutcome(requests, bytes, analysis, result.chosen().size(), schemes,
                WhatIfPhaseNotes.of(comparison, result, phase, name, analysis));
    }

    /** The original's layout for the schemes without replicas, else the replicas' layouts (or why there is none). */
    private static String layout(Scheme s, SchemeComparison.Plan plan) {
        if (s == Scheme.ORIGINAL || s == Scheme.S_ORIG) return "original " + SchemeComparison.describe(plan.files().get(0));
        if (plan.placements().isEmpty()) return "no replica (no pattern to replicate): original " + SchemeComparison.describe(plan.files().get(0));
        return "replica " + plan.summary();
    }

    /**
     * The file's requests of one kind, with every rank of the job present (the comparison replays ranks 0..n-1; a rank
     * that never touched the file has an empty stream).
     */
    private static final class OnePhase implements TraceSource {
        private final DarshanTraceSource source;
        private final SortedSet<Integer> ranks = new TreeSet<>();
        private final IoOp op;

        OnePhase(DarshanTraceSource source, int ranks, IoOp op) {
            this.source = source;
            this.op = op;
            for (int r = 0; r < ranks; r++) this.ranks.add(r);
        }

        @Override
        public TracedJob job() { return source.job(); }

        @Override
        public SortedSet<Integer> ranks() { return ranks; }

        @Override
        public Iterator<TraceRecord> records(int rank) {
            Iterator<TraceRecord> all = source.records(rank);
            return new Iterator<>() {
                TraceRecord next = advance();

                private TraceRecord advance() {
                    while (all.hasNext()) {
                        TraceRecord r = all.next();
                        if (r.op() == op) return r;
                    }
                    return null;
                }

                @Override
                public boolean hasNext() { return next != null; }

                @Override
                public TraceRecord next() {
                    if (next == null) throw new NoSuchElementException();
                    TraceRecord r = next;
                    next = advance();
                    return r;
                }
            };
        }
    }
}
