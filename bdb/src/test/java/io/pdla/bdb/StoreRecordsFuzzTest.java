package io.pdla.bdb;

import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.Environment;
import com.sleepycat.je.OperationStatus;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 18, bad input, the records pdla-bdb owns in every store: the schema-version record and the durable
 * queue's counter and item keys, damaged through the JE API. The schema check gives a
 * {@link SchemaMismatchException} naming the store and its directory; the queue gives an
 * {@link IllegalStateException} naming the queue and the environment; nothing else, and nothing read as some
 * other number.
 */
class StoreRecordsFuzzTest {
    private static final SchemaVersion VERSION = new SchemaVersion("fuzzed store", 3);
    private static Path dir;
    private static Environment env;
    private static Database meta, items;
    private static DurableQueue queue;

    @BeforeContainer
    static void aStore() throws IOException {
        dir = Files.createTempDirectory("pdla-bdb-fuzz");
        env = JeEnvironments.open(dir, EnvironmentSettings.readWrite());
        meta = env.openDatabase(null, "meta", JeEnvironments.databaseConfig(EnvironmentSettings.readWrite()));
        items = env.openDatabase(null, "queue", JeEnvironments.databaseConfig(EnvironmentSettings.readWrite()));
        queue = new DurableQueue(items, meta, 2);
        JeTransactions.run(env, 1, txn -> {
            VERSION.check(meta, txn, dir, false, false);
            for (int i = 0; i < 4; i++) queue.offer(txn, i % 2, new byte[]{(byte) i});
            return null;
        });
    }

    @AfterContainer
    static void cleanUp() throws IOException {
        if (items != null) items.close();
        if (meta != null) meta.close();
        if (env != null) env.close();
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    enum Record { SCHEMA_VERSION, QUEUE_COUNTER, QUEUE_ITEM_KEY }

    @Provide
    Arbitrary<Mutation> damage() {
        return Mutations.some(ByteOrder.BIG_ENDIAN);
    }

    @Property(tries = 300)
    void aDamagedRecordIsRefusedNamingTheStore(@ForAll Record record, @ForAll("damage") Mutation m) {
        byte[] key = switch (record) {
            case SCHEMA_VERSION -> SchemaVersion.tupleString("schema-version");
            case QUEUE_COUNTER -> SchemaVersion.tupleString("queue-next");
            case QUEUE_ITEM_KEY -> queue.items(null).isEmpty() ? null : java.nio.ByteBuffer.allocate(9).put((byte) queue.items(null).get(0).lane())
                    .putLong(queue.items(null).get(0).sequence()).array();
        };
        Database db = record == Record.QUEUE_ITEM_KEY ? items : meta;
        DatabaseEntry v = new DatabaseEntry();
        if (key == null || db.get(null, new DatabaseEntry(key), v, null) != OperationStatus.SUCCESS) fail("no " + record + " record");
        byte[] saved = v.getData();
        byte[] badKey = record == Record.QUEUE_ITEM_KEY ? m.apply(key) : key;
        if (badKey.length == 0) badKey = new byte[]{0};
        if (record == Record.QUEUE_ITEM_KEY) {
            db.delete(null, new DatabaseEntry(key));
            db.put(null, new DatabaseEntry(badKey), new DatabaseEntry(saved));
        } else {
            db.put(null, new DatabaseEntry(key), new DatabaseEntry(m.apply(saved)));
        }
        try {
            Bounded.Outcome<Long> o = Bounded.run(1 << 16, () -> {
                com.sleepycat.je.Transaction txn = env.beginTransaction(null, null);
                try {
                    VERSION.check(meta, txn, dir, true, true);
                    long n = queue.items(txn).size();
                    queue.offer(txn, 1, new byte[]{42});
                    return n + queue.poll(txn).map(i -> 1).orElse(0);
                } finally {
                    txn.abort(); // look, change nothing
                }
            });
            Statistics.label("record").collect(record);
            if (!o.failed()) {
                Statistics.label("outcome").collect("read");
                return;
            }
            Throwable e = o.error();
            if (e instanceof SchemaMismatchException s) {
                assertTrue(s.getMessage().contains("fuzzed store at " + dir), s.getMessage());
                Statistics.label("outcome").collect("SchemaMismatchException");
            } else if (e instanceof IllegalStateException && e.getMessage() != null && e.getMessage().startsWith("queue queue in " + dir)) {
                assertTrue(e.getMessage().contains("damaged"), e.getMessage());
                Statistics.label("outcome").collect("IllegalStateException naming the queue");
            } else {
                fail(record + " damaged by '" + m + "' gave " + Bounded.describe(e), e);
            }
        } finally {
            if (record == Record.QUEUE_ITEM_KEY) {
                db.delete(null, new DatabaseEntry(badKey));
                db.put(null, new DatabaseEntry(key), new DatabaseEntry(saved));
            } else {
                db.put(null, new DatabaseEntry(key), new DatabaseEntry(saved));
            }
        }
    }
}
