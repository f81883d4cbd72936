package io.pdla.bdb;

import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.Environment;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A second process for the tests: JE refuses a second writing process, and only a killed process shows what a
 * crash leaves behind.
 * <ul>
 * <li>{@code hold DIR MILLIS}: opens the environment, prints "open", keeps it {@code MILLIS} ms, closes it;</li>
 * <li>{@code offer DIR}: forever, in one transaction each, stores record i and offers i to the queue, then prints
 * "committed i".</li>
 * </ul>
 */
public final class JeChild {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        try (Environment env = JeEnvironments.open(dir, EnvironmentSettings.readWrite())) {
            if (args[0].equals("hold")) {
                System.out.println("open");
                System.out.flush();
                Thread.sleep(Long.parseLong(args[2]));
                return;
            }
            QueueStore store = QueueStore.open(env);
            for (int i = 0; ; i++) {
                int n = i;
                JeTransactions.run(env, 5, txn -> {
                    byte[] value = Integer.toString(n).getBytes(StandardCharsets.UTF_8);
                    store.records().put(txn, new DatabaseEntry(value), new DatabaseEntry(value));
                    store.queue().offer(txn, n % 2, value);
                    return null;
                });
                System.out.println("committed " + i);
                System.out.flush();
            }
        }
    }

    /** The databases of a test store: meta, a queue with two lanes, and records committed with the items. */
    record QueueStore(Database meta, Database items, Database records, DurableQueue queue) implements AutoCloseable {
        static QueueStore open(Environment env) {
            var dc = JeEnvironments.databaseConfig(EnvironmentSettings.readWrite());
            Database meta = env.openDatabase(null, "meta", dc);
            Database items = env.openDatabase(null, "queue", dc);
            return new QueueStore(meta, items, env.openDatabase(null, "records", dc), new DurableQueue(items, meta, 2));
        }

        @Override
        public void close() {
            records.close();
            items.close();
            meta.close();
        }
    }
}
