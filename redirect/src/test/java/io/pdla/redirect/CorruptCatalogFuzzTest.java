package io.pdla.redirect;

import io.pdla.catalog.CatalogRows;
import io.pdla.catalog.FileIdentity;
import io.pdla.catalog.FileRecord;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.Fixture;
import io.pdla.storage.StorageDrivers;
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
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 18: whatever damage a replica catalog record takes (a replica entry or the file record, mutated through
 * the JE API), an application reading the replicated file through the redirect interceptor gets exactly the
 * original's bytes: from the replica when the record still vouches for it, else from the original with a
 * warning. The read never fails and never returns other bytes.
 */
class CorruptCatalogFuzzTest {
    private static Path root;
    private static Fixture fx;
    private static Path file;
    private static byte[] data;

    @BeforeContainer
    static void aReplicatedFile() throws Exception {
        root = Files.createTempDirectory("pdla-redirect-fuzz");
        file = root.resolve("r.dat");
        data = Fixture.writeRandomFile(file, 200_000, 11);
        fx = new Fixture(root);
        fx.replication.queue.offer(KeyedPattern.of(new PatternKey(new AppIdentity("app", 1), 0, file.toUri()), Geometry.strided(0, 4096, 8192, 16)));
        assertEquals(1, fx.replication.daemon.runOnce().published());
        FileIdentity id = FileIdentity.probe(StorageDrivers.installed().forUri(file.toUri()), file.toUri());
        fx.catalog.transact(t -> {
            t.putFile(file.toUri(), new FileRecord(0, 0, id));
            return null;
        });
        assertEquals(16, readAll().readsFromReplica.get(), "sanity: the undamaged catalog serves every read from the replica");
    }

    @AfterContainer
    static void cleanUp() throws IOException {
        if (fx != null) fx.close();
        if (root == null) return;
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static RedirectStats readAll() throws Exception {
        RedirectInterceptor ri = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db));
        try (ChainFile cf = new ChainFile(file.toUri(), "app", 1, 0, Map.of(), List.of(ri), true)) {
            for (int i = 0; i < 16; i++) {
                assertArrayEquals(Arrays.copyOfRange(data, i * 8192, i * 8192 + 4096), cf.read(i * 8192L, 4096), "block " + i);
            }
            assertArrayEquals(Arrays.copyOfRange(data, 1000, 60_000), cf.read(1000, 59_000), "a read across blocks and gaps");
        }
        return ri.stats();
    }

    @Provide
    Arbitrary<String> table() {
        return Arbitraries.of("replicas", "files");
    }

    @Provide
    Arbitrary<Mutation> damage() {
        return Mutations.some(ByteOrder.BIG_ENDIAN);
    }

    @Property(tries = 200)
    void readsThroughADamagedCatalogReturnTheOriginalsBytes(@ForAll("table") String table, @ForAll("damage") Mutation m) throws Exception {
        List<CatalogRows.Row> saved = CatalogRows.rows(fx.catalog, table);
        CatalogRows.Row victim = saved.get(0);
        CatalogRows.put(fx.catalog, table, victim.key(), m.apply(victim.value()));
        try {
            RedirectStats s = readAll();
            Statistics.label("table").collect(table);
            Statistics.label("served from").collect(s.readsFromReplica.get() > 0 ? "replica" : s.fallbacks.get() > 0 ? "original (fallback)" : "original");
        } finally {
            for (CatalogRows.Row r : saved) CatalogRows.put(fx.catalog, table, r.key(), r.value());
        }
    }
}
