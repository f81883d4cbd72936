package io.pdla.patterns.db;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.Environment;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Transaction;
import io.pdla.pattern.PatternKey;
import io.pdla.testing.fuzz.Bounded;
import io.pdla.testing.fuzz.Mutation;
import io.pdla.testing.fuzz.Mutations;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 18, bad input: a real pattern database whose records are damaged through the JE API (a pattern entry's
 * JSON value, a key, the schema-version record in {@code meta}, a queue item), then opened read-only and read
 * the way {@code pdla patterns} and the replicator read it. The outcome is the data, or a
 * {@link PatternDatabaseException} (a {@link SchemaVersionException} for the version record) whose message names
 * the store and, for a record, its key; never another exception, never a hang.
 */
class PatternDatabaseFuzzTest {
    private static Path root;
    private static Path valid;

    @BeforeContainer
    static void aDatabase() throws IOException {
        root = Files.createTempDirectory("pdla-patterndb-fuzz");
        valid = root.resolve("valid");
        try (PatternDatabase db = PatternDatabase.open(valid)) {
            for (int i = 0; i < 4; i++) db.put(CrashWriter.entry(i));
        }
    }

    @AfterContainer
    static void cleanUp() throws IOException {
        if (root == null) return;
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** Which record is damaged: JE database name, and whether the value or the key. */
    enum Target {
        ENTRY_VALUE("patterns", false), ENTRY_KEY("patterns", true), SCHEMA_VERSION("meta", false), QUEUE_ITEM("replication-queue", false);

        final String db;
        final boolean key;

        Target(String db, boolean key) {
            this.db = db;
            this.key = key;
        }
    }

    @Provide
    Arbitrary<Mutation> damage() {
        Arbitrary<Mutation> json = Arbitraries.of("null", "{}", "[]", "{\"patterns\":null}", "{\"patterns\":[]}", "{\"patterns\":[{}]}",
                        "{\"patterns\":[{\"spec\":\"nonsense\"}]}", "{\"patterns\":[{\"count\":-1}]}", "{\"runtime\":{\"requestSizes\":[-5]}}", "\"")
                .map(s -> new Mutation("json", "value := " + s, b -> s.getBytes(StandardCharsets.UTF_8)));
        Arbitrary<Mutation> olderSchema = Arbitraries.of(0, 1, 2, 4, -1, Integer.MAX_VALUE)
                .map(v -> new Mutation("schema version", "schema version := " + v, b -> {
                    com.sleepycat.bind.tuple.TupleOutput out = new com.sleepycat.bind.tuple.TupleOutput();
                    out.writeInt(v);
                    return out.toByteArray();
                }));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, Mutations.some(ByteOrder.BIG_ENDIAN)),
                net.jqwik.api.Tuple.of(1, json),
                net.jqwik.api.Tuple.of(1, olderSchema));
    }

    @Property(tries = 80)
    void aDamagedRecordIsReadOrRejectedNamingStoreAndKey(@ForAll Target target, @ForAll("damage") Mutation m) throws Exception {
        Path dir = Files.createTempDirectory(root, "try");
        try {
            try (Stream<Path> s = Files.list(valid)) {
                for (Path p : s.toList()) if (p.toString().endsWith(".jdb")) Files.copy(p, dir.resolve(p.getFileName()));
            }
            String damaged;
            try (PatternDatabase db = PatternDatabase.open(dir)) {
                damaged = damage(db.environment(), target, m);
            }
            Bounded.Outcome<Integer> o = Bounded.run(java.time.Duration.ofSeconds(20), 256L << 20, () -> readEverything(dir));
            Statistics.label("target").collect(target);
            if (!o.failed()) {
                Statistics.label("outcome").collect("read");
                return;
            }
            if (!(o.error() instanceof PatternDatabaseException e)) {
                fail(target + " damaged by '" + m + "' gave " + Bounded.describe(o.error()), o.error());
                return;
            }
            assertTrue(e.getMessage().contains(dir.toString()) || e.getMessage().contains("pattern database"),
                    "names the store: " + e.getMessage());
            if (target == Target.SCHEMA_VERSION && e instanceof SchemaVersionException) {
                assertTrue(e.getMessage().contains("schema version"), e.getMessage());
            }
            Statistics.label("outcome").collect(e.getClass().getSimpleName());
            assertEquals(e.getMessage(), e.getMessage().strip(), "a one-line message");
            assertTrue(damaged != null);
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Damages the first record of the target database through JE; returns what was damaged. */
    private static String damage(Environment env, Target target, Mutation m) {
        DatabaseConfig dc = new DatabaseConfig().setTransactional(true);
        Transaction txn = env.beginTransaction(null, null);
        try (Database db = env.openDatabase(txn, target.db, dc)) {
            DatabaseEntry k = new DatabaseEntry(), v = new DatabaseEntry();
            List<byte[][]> rows = new ArrayList<>();
            try (Cursor c = db.openCursor(txn, null)) {
                while (c.getNext(k, v, LockMode.DEFAULT) == OperationStatus.SUCCESS) rows.add(new byte[][]{k.getData(), v.getData()});
            }
            if (target == Target.SCHEMA_VERSION) {
                rows.removeIf(r -> !new String(r[0], StandardCharsets.UTF_8).contains("schema-version"));
            }
            if (rows.isEmpty()) {
                txn.commit();
                return null;
            }
            byte[][] row = rows.get(0);
            if (target.key) {
                db.delete(txn, new DatabaseEntry(row[0]));
                db.put(txn, new DatabaseEntry(m.apply(row[0]).length == 0 ? new byte[]{0} : m.apply(row[0])), new DatabaseEntry(row[1]));
            } else {
                db.put(txn, new DatabaseEntry(row[0]), new DatabaseEntry(m.apply(row[1])));
            }
            txn.commit();
            return target.db;
        } catch (RuntimeException e) {
            txn.abort();
            // JE itself refused the damaged record (a secondary key it cannot derive): nothing was written
            return null;
        }
    }

    /** What {@code pdla patterns} and the replicator read: every key, every entry, both indexes, the queue. */
    private static int readEverything(Path dir) {
        try (PatternDatabase db = PatternDatabase.openExisting(dir, true)) {
            int n = 0;
            for (PatternKey k : db.keys()) {
                n += db.get(k).map(e -> e.patterns().size()).orElse(0);
                n += db.byFile(k.file()).size() + db.byApp(k.app().command()).size();
            }
            return n + db.peekQueue().size();
        }
    }
}
