package io.pdla.patterns.db;

import com.sleepycat.je.Transaction;
import io.pdla.access.IoOp;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.PatternKey;
import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.Analyzer;
import io.pdla.patterns.synth.SyntheticTraces;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PatternDatabaseTest {
    @TempDir
    Path dir;

    @Test
    void putGetAndSecondaryLookupsByFileAndApp() {
        try (PatternDatabase db = PatternDatabase.open(dir)) {
            for (int i = 0; i < 6; i++) assertTrue(db.put(CrashWriter.entry(i)));
            PatternEntry other = new PatternEntry(PatternKey.global(new AppIdentity("other-app", 2), URI.create("file:///data/file-3")),
                    CrashWriter.entry(3).patterns(), CrashWriter.entry(3).runtime());
            assertTrue(db.put(other));
            assertEquals(CrashWriter.entry(4), db.get(CrashWriter.entry(4).key()).orElseThrow());
            assertEquals(Set.of(CrashWriter.entry(3).key(), other.key()),
                    Set.copyOf(db.byFile(URI.create("file:///data/file-3")).stream().map(PatternEntry::key).toList()));
            assertEquals(6, db.byApp("crash-app").size());
            assertEquals(List.of(other), db.byApp("other-app"));
            assertTrue(db.byFile(URI.create("file:///nope")).isEmpty());
            assertEquals(7, db.keys().size());
            // the global key sorts before the ranks of the same app and process count
            assertEquals("all", other.key().scope());
        }
    }

    @Test
    void everyNewOrChangedPutIsQueuedOnceAndDequeuedInOrder() {
        try (PatternDatabase db = PatternDatabase.open(dir)) {
            for (int i = 0; i < 5; i++) db.put(CrashWriter.entry(i));
            assertFalse(db.put(CrashWriter.entry(2)), "identical entry is not new");
            assertEquals(5, db.queueLength());
            List<QueueItem> q = db.peekQueue();
            for (int i = 0; i < 5; i++) {
                assertEquals(i, q.get(i).sequence());
                assertEquals(CrashWriter.entry(i).key(), q.get(i).key());
            }
            assertEquals(CrashWriter.entry(0).key(), db.dequeue().orElseThrow().key());
            assertEquals(4, db.queueLength());
            // a dequeue inside an aborted transaction leaves the item queued
            Transaction txn = db.environment().beginTransaction(null, null);
            assertEquals(CrashWriter.entry(1).key(), db.dequeue(txn).orElseThrow().key());
            txn.abort();
            assertEquals(4, db.queueLength());
            assertTrue(db.delete(CrashWriter.entry(1).key()));
            assertEquals(3, db.queueLength(), "deleting an entry removes its queue items");
            assertTrue(db.get(CrashWriter.entry(1).key()).isEmpty());
            assertTrue(db.byFile(URI.create("file:///data/file-1")).isEmpty(), "secondary follows the delete");
            assertFalse(db.delete(CrashWriter.entry(1).key()));
            while (db.dequeue().isPresent()) { }
            assertEquals(Optional.empty(), db.dequeue());
        }
    }

    @Test
    void concurrentWritersAndAReplicatorLoseNothing() throws Exception {
        int perThread = 150;
        try (PatternDatabase db = PatternDatabase.open(dir)) {
            java.util.concurrent.ConcurrentLinkedQueue<QueueItem> taken = new java.util.concurrent.ConcurrentLinkedQueue<>();
            java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean(true);
            Thread replicator = new Thread(() -> {
                while (writing.get() || db.queueLength() > 0) db.dequeue().ifPresent(taken::add);
            });
            replicator.start();
            List<Thread> writers = new java.util.ArrayList<>();
            java.util.concurrent.ConcurrentLinkedQueue<RuntimeException> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
            for (int t = 0; t < 3; t++) {
                int base = t * perThread;
                Thread w = new Thread(() -> {
                    try {
                        for (int i = base; i < base + perThread; i++) db.put(CrashWriter.entry(i));
                    } catch (RuntimeException e) {
                        failures.add(e);
                    }
                });
                writers.add(w);
                w.start();
            }
            for (Thread w : writers) w.join();
            writing.set(false);
            replicator.join();
            assertTrue(failures.isEmpty(), "a writer failed: " + failures);
            assertEquals(3 * perThread, db.keys().size());
            assertEquals(3 * perThread, taken.size(), "every stored entry was queued once and dequeued once");
            assertEquals(3 * perThread, taken.stream().map(QueueItem::key).distinct().count());
            assertEquals(0, db.queueLength());
        }
    }

    @Test
    void aSchemaVersionMismatchIsAClearErrorNamingTheDirectory() {
        try (PatternDatabase db = PatternDatabase.open(dir)) {
            db.put(CrashWriter.entry(0));
            db.forceVersion(99);
        }
        SchemaVersionException e = assertThrows(SchemaVersionException.class, () -> PatternDatabase.open(dir));
        assertTrue(e.getMessage().contains(dir.toString()) && e.getMessage().contains("version 99")
                && e.getMessage().contains("expects version " + PatternDatabase.SCHEMA_VERSION), e.getMessage());
    }

    @Test
    void aVersion2QueueIsRewrittenInOrderWhenOpenedForWriting() {
        int n = 2 + new java.util.Random().nextInt(20);
        io.pdla.bdb.EnvironmentSettings rw = io.pdla.bdb.EnvironmentSettings.readWrite();
        try (com.sleepycat.je.Environment env = io.pdla.bdb.JeEnvironments.open(dir, rw);
             com.sleepycat.je.Database meta = env.openDatabase(null, "meta", io.pdla.bdb.JeEnvironments.databaseConfig(rw));
             com.sleepycat.je.Database queue = env.openDatabase(null, "replication-queue", io.pdla.bdb.JeEnvironments.databaseConfig(rw))) {
            io.pdla.bdb.JeTransactions.run(env, 1, txn -> {
                io.pdla.bdb.SchemaVersion.write(meta, txn, 2);
                for (int i = 0; i < n; i++) {   // version 2's layout: tuple-long sequence -> key
                    com.sleepycat.bind.tuple.TupleOutput seq = new com.sleepycat.bind.tuple.TupleOutput();
                    seq.writeLong(100 + i);
                    queue.put(txn, new com.sleepycat.je.DatabaseEntry(seq.toByteArray()),
                            new com.sleepycat.je.DatabaseEntry(KeyTuples.encode(CrashWriter.entry(i).key())));
                }
                return null;
            });
        }
        try (PatternDatabase db = PatternDatabase.open(dir)) {
            List<QueueItem> q = db.peekQueue();
            assertEquals(n, q.size());
            for (int i = 0; i < n; i++) assertEquals(CrashWriter.entry(i).key(), q.get(i).key(), "item " + i + " of " + n);
            assertEquals(CrashWriter.entry(0).key(), db.dequeue().orElseThrow().key());
        }
        try (PatternDatabase db = PatternDatabase.openExisting(dir, true)) {
            assertEquals(n - 1, db.queueLength(), "the migration was committed: version " + PatternDatabase.SCHEMA_VERSION + " now");
        }
    }

    @Test
    void openExistingOnAnEmptyDirectoryNamesIt() {
        PatternDatabaseException e = assertThrows(PatternDatabaseException.class, () -> PatternDatabase.openExisting(dir, true));
        assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
    }

    @Test
    void storeReportWritesLocalsPerRankAndGlobalsUnderAllAndLinksThem() {
        AnalysisReport r = new Analyzer().analyze(SyntheticTraces.ior(4, 65536, 65536, 16, IoOp.WRITE));
        try (PatternDatabase db = PatternDatabase.open(dir)) {
            assertEquals(5, db.storeReport(r));
            assertEquals(5, db.queueLength());
            AppIdentity app = r.job().app();
            URI path = r.job().uri(0);
            PatternEntry global = db.get(PatternKey.global(app, path)).orElseThrow();
            assertEquals(r.globals().get(0).geometry(), global.patterns().get(0).closedForm());
            assertEquals(4, global.patterns().get(0).members().size());
            PatternEntry rank2 = db.get(PatternKey.local(app, 2, path)).orElseThrow();
            assertEquals(Geometry.strided(2 * 65536, 65536, 4 * 65536, 16), rank2.patterns().get(0).closedForm());
            assertEquals(0, rank2.patterns().get(0).globalIndex());
            assertEquals(List.of(65536L), rank2.runtime().requestSizes());
            assertEquals(0, db.storeReport(r), "storing the same analysis again changes nothing and queues nothing");
            assertEquals(5, db.queueLength());
        }
    }

    @Test
    void committedPatternsSurviveAKilledWriterWithNoHalfWrittenEntry() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), CrashWriter.class.getName(), dir.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        int lastCommitted = -1;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                lastCommitted = Integer.parseInt(line.substring("committed ".length()));
                if (lastCommitted >= 40) break;
            }
            p.destroyForcibly();   // SIGKILL in the middle of further inserts
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        }
        assertTrue(lastCommitted >= 40, "writer stopped early at " + lastCommitted);
        try (PatternDatabase db = PatternDatabase.open(dir)) {
            Set<Integer> present = new HashSet<>();
            for (PatternKey k : db.keys()) {
                PatternEntry e = db.get(k).orElseThrow();         // decodes: no half-written value
                int i = Integer.parseInt(k.file().getPath().substring("/data/file-".length()));
                assertEquals(CrashWriter.entry(i), e);
                present.add(i);
            }
            for (int i = 0; i <= lastCommitted; i++) assertTrue(present.contains(i), "committed entry " + i + " lost");
            // entries and queue items were committed together
            assertEquals(present.size(), db.queueLength());
            for (int i = 0; i < present.size(); i++) assertTrue(present.contains(i), "gap at " + i);
        }
        assertTrue(new File(dir.toFile(), "je.lck").exists() || dir.toFile().listFiles().length > 0);
    }
}
