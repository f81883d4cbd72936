package io.pdla.redirect;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.access.TraceRecord;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.Analyzer;
import io.pdla.patterns.InMemoryTraceSource;
import io.pdla.patterns.ReplicaSelection;
import io.pdla.patterns.TracedJob;
import io.pdla.patterns.db.PatternDatabase;
import io.pdla.patterns.db.PatternEntry;
import io.pdla.patterns.template.PatternKind;
import io.pdla.replicator.Fixture;
import io.pdla.replicator.daemon.DaemonReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every kind of pattern the analyzer emits ({@link PatternKind}, read off the closed form the matcher builds), with
 * and without a partial last block, goes the whole way: traced requests, analysis, the pattern database (stored and
 * read back), {@link ReplicaSelection}, the replicator (a real replica built and published), and reads through the
 * redirect interceptor served from that replica with exactly the original's bytes. A contiguous pattern is the one
 * kind the selection passes over (its replica would copy the original as it lies); its reads go to the original.
 */
class AnalyzedPatternKindsRoundTripTest {
    @TempDir
    Path tmp;

    /** A one-rank workload: request k has size {@code size(k)} at {@code offset(k)}. */
    record Workload(String name, long requests, LongUnaryOperator size, LongUnaryOperator offset) {
    }

    static List<Workload> workloads() {
        return List.of(
                new Workload("contiguous", 64, k -> 4096, k -> k * 4096),
                new Workload("strided", 64, k -> 4096, k -> 8192 + k * 12288),
                new Workload("negative-strided", 64, k -> 4096, k -> (63 - k) * 8192),
                new Workload("nested-strided", 64, k -> 2048, k -> (k / 8) * 65536 + (k % 8) * 4096),
                new Workload("nested-strided-partial", 60, k -> 2048, k -> (k / 8) * 65536 + (k % 8) * 4096),
                new Workload("size-sequence", 64, k -> k % 2 == 0 ? 1000 : 3000, k -> (k / 2) * 8192 + (k % 2) * 1500),
                new Workload("size-sequence-partial", 63, k -> k % 2 == 0 ? 1000 : 3000, k -> (k / 2) * 8192 + (k % 2) * 1500));
    }

    @Test
    void everyPatternKindTheAnalyzerEmitsIsStoredReplicatedAndServedFromItsReplica() throws Exception {
        Set<PatternKind> emitted = EnumSet.noneOf(PatternKind.class);
        boolean partialSeen = false;
        for (Workload w : workloads()) {
            Path dir = tmp.resolve(w.name());
            java.nio.file.Files.createDirectories(dir);
            Path file = dir.resolve("data.bin");
            long end = 0;
            for (long k = 0; k < w.requests(); k++) end = Math.max(end, w.offset().applyAsLong(k) + w.size().applyAsLong(k));
            byte[] original = Fixture.writeRandomFile(file, (int) end + 4096, w.name().hashCode());
            List<TraceRecord> records = new ArrayList<>();
            for (long k = 0; k < w.requests(); k++) {
                records.add(new TraceRecord(0, 0, IoOp.READ, Positioning.EXPLICIT_OFFSET, false, w.offset().applyAsLong(k),
                        w.size().applyAsLong(k), k * 1000, k * 1000 + 500));
            }
            String app = "kinds-" + w.name();
            AnalysisReport report = new Analyzer().analyze(InMemoryTraceSource.of(
                    new TracedJob(app, 1, Map.of(0, file.toString()), Map.of(), null), Map.of(0, records)));
            assertEquals(1, report.locals().size(), w.name() + ": one pattern expected, got " + report.locals());
            Geometry found = report.locals().get(0).geometry();
            emitted.add(PatternKind.of(found));
            partialSeen |= !found.complete();

            List<PatternEntry> stored;
            try (PatternDatabase db = PatternDatabase.open(dir.resolve("patterns"))) {
                db.storeReport(report);
                stored = db.keys().stream().map(k -> db.get(k).orElseThrow()).toList();
            }
            assertEquals(found, stored.stream().filter(e -> !e.key().global()).findFirst().orElseThrow().patterns().get(0).closedForm(),
                    w.name() + ": the pattern database returns the closed form it was given");
            ReplicaSelection.Selection sel = ReplicaSelection.choose(stored);

            try (Fixture fx = new Fixture(dir)) {
                for (KeyedPattern p : sel.chosen()) fx.replication.queue.offer(p);
                DaemonReport rep = fx.replication.daemon.runOnce();
                assertEquals(sel.chosen().size(), rep.published(), w.name() + ": " + rep.lines());
                for (KeyedPattern p : sel.chosen()) {
                    ReplicaEntry e = fx.catalog.transact(t -> t.entry(p.key())).orElseThrow();
                    assertEquals(ReplicaState.VALID, e.state(), w.name());
                    assertEquals(p, e.pattern(), w.name() + ": the catalog holds the selected closed form");
                }
                RedirectInterceptor ri = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db).withReadAhead(0));
                try (ChainFile f = new ChainFile(file.toUri(), app, 1, 0, Map.of(), List.of(ri), true)) {
                    for (long k = 0; k < w.requests(); k++) {
                        int off = (int) w.offset().applyAsLong(k), len = (int) w.size().applyAsLong(k);
                        assertArrayEquals(Arrays.copyOfRange(original, off, off + len), f.read(off, len), w.name() + " request " + k);
                    }
                    // one read spanning the whole pattern: replica runs and the gaps between them, in buffer order
                    assertArrayEquals(Arrays.copyOfRange(original, 0, (int) end), f.read(0, (int) end), w.name() + ": the whole range");
                }
                long patternBytes = found.totalBytes();
                if (PatternKind.of(found) == PatternKind.CONTIGUOUS) {
                    assertTrue(sel.chosen().isEmpty(), w.name() + ": a contiguous pattern is not replicated");
                    assertEquals(0, ri.stats().bytesFromReplica.get(), w.name());
                } else {
                    assertEquals(1, sel.chosen().size(), w.name() + ": " + sel);
                    assertEquals(2 * patternBytes, ri.stats().bytesFromReplica.get(), w.name() + ": every pattern byte, twice, from the replica: " + ri.stats());
                }
            }
        }
        assertEquals(EnumSet.allOf(PatternKind.class), emitted, "the workloads cover every kind the analyzer emits");
        assertTrue(partialSeen, "a partial last block was among the patterns");
        assertFalse(emitted.isEmpty());
    }
}
