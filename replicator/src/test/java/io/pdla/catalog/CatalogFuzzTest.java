package io.pdla.catalog;

import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.Fixture;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
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
import java.net.URI;
import java.nio.ByteOrder;
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
 * Issue 18, bad input: the replica catalog's records damaged through the JE API (replica entries, the file
 * record, the schema-version record) and the lookup that rank 0 hands to the other ranks at an open. A damaged
 * replica entry is skipped and reported (its raw message goes to the caller's {@code corrupt} consumer); a
 * damaged file record is a {@link CatalogException} naming the catalog and the file; a damaged lookup is an
 * {@link IllegalArgumentException} saying so; a damaged or older schema version refuses the open naming the
 * catalog. Never another exception, and never an allocation driven by a damaged length.
 */
class CatalogFuzzTest {
    private static Path root;
    private static Fixture fx;
    private static URI original;
    private static StorageDriver driver;

    @BeforeContainer
    static void aReplicatedFile() throws Exception {
        root = Files.createTempDirectory("pdla-catalog-fuzz");
        Path f = root.resolve("a.dat");
        Fixture.writeRandomFile(f, 200_000, 1);
        original = f.toUri();
        driver = StorageDrivers.installed().forUri(original);
        fx = new Fixture(root);
        for (int rank = 0; rank < 2; rank++) {
            fx.replication.queue.offer(KeyedPattern.of(new PatternKey(new AppIdentity("app", 2), rank, original),
                    Geometry.strided(rank * 4096L, 4096, 8192, 16)));
        }
        assertEquals(2, fx.replication.daemon.runOnce().published());
        FileIdentity id = FileIdentity.probe(driver, original);
        fx.catalog.transact(t -> {
            t.putFile(original, new FileRecord(3, 0, id));
            return null;
        });
    }

    @AfterContainer
    static void cleanUp() throws IOException {
        if (fx != null) fx.close();
        if (root == null) return;
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Provide
    Arbitrary<Mutation> damage() {
        return Mutations.some(ByteOrder.BIG_ENDIAN);
    }

    @Provide
    Arbitrary<String> table() {
        return Arbitraries.of("replicas", "files");
    }

    @Property(tries = 150)
    void aDamagedRowIsSkippedOrNamed(@ForAll("table") String table, @ForAll("damage") Mutation m) throws Exception {
        List<CatalogRows.Row> saved = CatalogRows.rows(fx.catalog, table);
        CatalogRows.Row victim = saved.get(0);
        byte[] bad = m.apply(victim.value());
        CatalogRows.put(fx.catalog, table, victim.key(), bad);
        try {
            List<String> corrupt = new ArrayList<>();
            Bounded.Outcome<FileLookup> o = Bounded.run(bad.length, () -> FileLookup.read(fx.catalog, driver, original, corrupt::add));
            Statistics.label("table").collect(table);
            if (o.failed()) {
                if (!(o.error() instanceof CatalogException e)) {
                    fail(table + " row damaged by '" + m + "' gave " + Bounded.describe(o.error()), o.error());
                    return;
                }
                assertTrue(e.getMessage().contains("replica catalog") && e.getMessage().contains(fx.catalog.location()), e.getMessage());
                assertTrue(e.getMessage().contains(original.toString()), "names the file: " + e.getMessage());
                Statistics.label("outcome").collect("CatalogException naming catalog and file");
                return;
            }
            FileLookup l = o.value();
            assertEquals(l, FileLookup.fromBytes(l.toBytes()), "what rank 0 hands over is what the others decode");
            if (!corrupt.isEmpty()) {
                assertEquals(1, corrupt.size(), corrupt.toString());
                assertTrue(corrupt.get(0).startsWith("corrupt catalog entry"), corrupt.get(0));
                assertEquals(saved.size() - 1, l.entries().size(), "the damaged entry is skipped, the others are kept");
                Statistics.label("outcome").collect("entry skipped, reported");
            } else {
                Statistics.label("outcome").collect("read");
            }
            // the daemon's scan sees the same
            List<byte[]> rawCorrupt = new ArrayList<>();
            fx.catalog.transact(t -> {
                t.forEachEntry(e -> { }, rawCorrupt::add);
                return null;
            });
            assertEquals(table.equals("replicas") ? corrupt.size() : 0, rawCorrupt.size());
        } finally {
            for (CatalogRows.Row r : saved) CatalogRows.put(fx.catalog, table, r.key(), r.value());
        }
    }

    @Property(tries = 1000)
    void aDamagedLookupFromRankZeroIsRefusedSayingSo(@ForAll("damage") Mutation m) throws Exception {
        byte[] good = FileLookup.read(fx.catalog, driver, original, p -> { }).toBytes();
        byte[] bad = m.apply(good);
        Bounded.Outcome<FileLookup> o = Bounded.run(bad.length, () -> FileLookup.fromBytes(bad));
        if (!o.failed()) {
            Statistics.label("outcome").collect("decoded");
            return;
        }
        if (!(o.error() instanceof IllegalArgumentException)) fail("'" + m + "' gave " + Bounded.describe(o.error()), o.error());
        assertTrue(o.error().getMessage().contains("file lookup") || o.error().getMessage().contains("catalog entry"), o.error().getMessage());
        Statistics.label("outcome").collect("IllegalArgumentException");
    }

    @Provide
    Arbitrary<Mutation> versionDamage() {
        Arbitrary<Mutation> older = Arbitraries.of(0, 2, -1, Integer.MAX_VALUE).map(v -> new Mutation("version", "schema version " + v, b -> {
            com.sleepycat.bind.tuple.TupleOutput out = new com.sleepycat.bind.tuple.TupleOutput();
            out.writeInt(v);
            return out.toByteArray();
        }));
        return Arbitraries.oneOf(older, Mutations.some(ByteOrder.BIG_ENDIAN));
    }

    @Property(tries = 30)
    void aDamagedOrOtherSchemaVersionRefusesTheOpenNamingTheCatalog(@ForAll("versionDamage") Mutation m) throws Exception {
        Path db = Files.createTempDirectory(root, "versions");
        try {
            byte[] bad;
            try (Catalog c = Catalog.open(db)) {
                CatalogRows.Row v = CatalogRows.rows(c, "meta").stream()
                        .filter(r -> new String(r.key(), java.nio.charset.StandardCharsets.UTF_8).contains("schema-version")).findFirst().orElseThrow();
                bad = m.apply(v.value());
                CatalogRows.put(c, "meta", v.key(), bad);
            }
            Bounded.Outcome<Integer> o = Bounded.run(java.time.Duration.ofSeconds(20), 64L << 20, () -> {
                try (Catalog c = Catalog.openExisting(db)) {
                    return c.transact(t -> t.recordedFiles().size());
                }
            });
            if (!o.failed()) {
                Statistics.label("outcome").collect("opened (version still " + Catalog.SCHEMA_VERSION + ")");
                return;
            }
            if (!(o.error() instanceof CatalogException e)) {
                fail("'" + m + "' gave " + Bounded.describe(o.error()), o.error());
                return;
            }
            assertTrue(e.getMessage().contains("replica catalog") && e.getMessage().contains(db.toAbsolutePath().normalize().toString()), e.getMessage());
            assertTrue(e.getMessage().contains("schema version"), e.getMessage());
            Statistics.label("outcome").collect("CatalogException (schema version)");
        } finally {
            try (Stream<Path> s = Files.walk(db)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
