package io.pdla.catalog;

import com.sleepycat.je.Database;
import io.pdla.bdb.JeTransactions;
import io.pdla.bdb.SchemaMismatchException;
import io.pdla.bdb.SchemaVersion;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.catalog.pattern.PatternCodec;
import io.pdla.storage.Layout;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The catalog's change stamp and the look-ups an open reuses through it ({@link StampedLookups}), on a real JE catalog
 * and real files: every writing transaction changes the stamp and no reading one does; a look-up is reused when
 * nothing changed (counted in catalog transactions), and never after a change in the catalog, outside it to the
 * original, after a writer that died between its stamp and its commit, or on a catalog of the version before stamps.
 */
class CatalogStampTest {
    static final int SIZE = 64 << 10;

    @TempDir
    Path dir;
    Path db;
    Path file;
    URI uri;
    StorageDriver driver;
    FileIdentity id;

    /** The catalog opened per transaction, as an open's look-up reaches it, counting its transactions (each one a JE open). */
    static final class Counting implements CatalogAccess {
        final TransientCatalogAccess inner;
        final AtomicInteger transactions = new AtomicInteger();

        Counting(Path db) {
            inner = new TransientCatalogAccess(db, 10_000);
        }

        @Override
        public <T> T transact(Work<T> work) throws IOException {
            transactions.incrementAndGet();
            return inner.transact(work);
        }

        @Override
        public String location() {
            return inner.location();
        }

        @Override
        public Path directory() {
            return inner.directory();
        }
    }

    @BeforeEach
    void setUp() throws IOException {
        StampedLookups.clear();
        db = dir.resolve("catalog");
        file = dir.resolve("data.bin");
        Files.write(file, new byte[SIZE]);
        uri = file.toUri();
        driver = StorageDrivers.installed().forUri(uri);
        id = FileIdentity.probe(driver, uri);
    }

    @AfterEach
    void tearDown() {
        Catalog.afterStampChangeForTest = null;
        StampedLookups.clear();
    }

    ReplicaEntry entry(int rank, ReplicaState state, String replicaName) {
        KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("app", 4), rank, uri), Geometry.strided(rank * 4096L, 4096, 4 * 4096, 4));
        return new ReplicaEntry(p, dir.resolve(replicaName).toUri(), Layout.DEFAULT, "", "HServers", 1.0, 0, state, id, 0, 1_000L);
    }

    void commit(CatalogAccess.Work<Void> w) throws IOException {
        try (Catalog c = Catalog.open(db)) {
            c.transact(w);
        }
    }

    String stamp() throws IOException {
        return Catalog.readStamp(db).orElseThrow(() -> new AssertionError("no change stamp in " + db));
    }

    /** A look-up through the cache; checks it equals what a full look-up reads now, so a stale reuse fails here. */
    StampedLookups.Answer look(CatalogAccess access) throws IOException {
        StampedLookups.Answer a = StampedLookups.read(access, driver, uri, p -> { });
        FileLookup fresh = FileLookup.read(new TransientCatalogAccess(db, 10_000), driver, uri, p -> { });
        assertEquals(fresh, a.lookup(), "the look-up (reused: " + a.reused() + ") differs from the catalog and original now");
        return a;
    }

    /**
     * Every public method of {@link CatalogTxn} is one the test above calls a write or a read: a new method that writes
     * without {@code writing()} would otherwise pass every test and let a stale look-up be reused.
     */
    @Test
    void everyPublicMethodOfATransactionIsClassifiedAsAWriteOrARead() {
        java.util.Set<String> writes = java.util.Set.of("put", "delete", "deleteRaw", "putFile", "addWriter", "removeWriter",
                "enqueue", "dequeue", "journal", "unjournal");
        java.util.Set<String> reads = java.util.Set.of("entry", "entriesOf", "file", "recordedFiles", "writers", "queueItems",
                "journalRows", "changeStamp", "forEachEntry");
        java.util.Set<String> unclassified = new java.util.TreeSet<>();
        for (java.lang.reflect.Method m : CatalogTxn.class.getDeclaredMethods()) {
            if (!java.lang.reflect.Modifier.isPublic(m.getModifiers()) || m.isSynthetic()) continue;
            if (!writes.contains(m.getName()) && !reads.contains(m.getName())) unclassified.add(m.getName());
        }
        assertEquals(java.util.Set.of(), unclassified, "CatalogTxn methods that are neither a listed write (which must call writing()) "
                + "nor a listed read: add each to the lists here and to everyWritingMethodChangesTheStampAndNoReadingOneDoes");
    }

    @Test
    void everyWritingMethodChangesTheStampAndNoReadingOneDoes() throws IOException {
        ReplicaEntry e = entry(0, ReplicaState.VALID, "r0");
        WriterSession s = new WriterSession("s1", 1, "host", 2);
        List<CatalogAccess.Work<Object>> writes = List.of(
                t -> { t.put(e); return null; },
                t -> t.delete(e.key()),
                t -> { t.put(e); return null; },
                t -> { t.deleteRaw(PatternCodec.keyBytes(e.key())); return null; },
                t -> { t.putFile(uri, new FileRecord(1, 0, id)); return null; },
                t -> { t.addWriter(uri, s); return null; },
                t -> t.removeWriter(uri, "s1"),
                t -> t.enqueue(new byte[]{1, 2}, true),
                t -> t.dequeue(t.queueItems().get(0).ticket()),
                t -> { t.journal("b1", List.of(uri)); return null; },
                t -> { t.unjournal("b1"); return null; });
        List<CatalogAccess.Work<Object>> reads = List.of(
                t -> t.entry(e.key()), t -> t.entriesOf(uri, p -> { }), t -> t.file(uri), t -> t.recordedFiles(),
                t -> t.writers(uri), t -> t.queueItems(), t -> t.journalRows(), t -> t.changeStamp(),
                t -> { t.forEachEntry(x -> { }, k -> { }); return null; });
        try (Catalog c = Catalog.open(db)) {
            for (int i = 0; i < writes.size(); i++) {
                String before = stamp();
                c.transact(writes.get(i));
                assertNotEquals(before, stamp(), "writing method " + i + " left the stamp unchanged");
            }
            for (int i = 0; i < reads.size(); i++) {
                String before = stamp();
                c.transact(reads.get(i));
                assertEquals(before, stamp(), "reading method " + i + " changed the stamp");
            }
            // a transaction whose work failed before the stamp point changed nothing and committed nothing
            String before = stamp();
            assertThrows(IOException.class, () -> c.transact(t -> {
                t.put(e);
                throw new IOException("fails after its write");
            }));
            assertEquals(before, stamp(), "the work failed before the stamp point: aborted, nothing to announce");
            assertTrue(c.transact(t -> t.entry(e.key())).isEmpty());
        }
    }

    @Test
    void aLookUpIsReusedWhenNothingChangedWithoutOpeningTheCatalog() throws IOException {
        commit(t -> { t.put(entry(0, ReplicaState.VALID, "r0")); t.putFile(uri, new FileRecord(1, 0, id)); return null; });
        Counting access = new Counting(db);
        assertFalse(look(access).reused(), "the first look-up reads the catalog");
        long reads = StampedLookups.catalogReads();
        for (int i = 0; i < 5; i++) assertTrue(look(access).reused(), "open " + i + " reused the look-up");
        assertEquals(1, access.transactions.get(), "one catalog transaction for six opens");
        assertEquals(reads, StampedLookups.catalogReads());
        // another file of the same catalog, and the same file in another catalog, are other look-ups
        Path other = dir.resolve("other.bin");
        Files.write(other, new byte[10]);
        assertFalse(StampedLookups.read(access, driver, other.toUri(), p -> { }).reused());
        Path db2 = dir.resolve("catalog2");
        try (Catalog c2 = Catalog.open(db2)) {
            assertFalse(StampedLookups.read(c2, driver, uri, p -> { }).reused());
        }
        assertTrue(look(access).reused(), "the first file's look-up is still kept");
    }

    @Test
    void everyCatalogChangeBetweenOpensIsReadNeverTheOldLookUp() throws IOException {
        ReplicaEntry valid = entry(0, ReplicaState.VALID, "r0");
        commit(t -> { t.put(valid); t.put(entry(1, ReplicaState.VALID, "r1")); t.putFile(uri, new FileRecord(1, 0, id)); return null; });
        Counting access = new Counting(db);
        look(access);
        List<CatalogAccess.Work<Void>> changes = List.of(
                t -> { t.put(valid.withState(ReplicaState.DIRTY)); return null; },                 // a write claimed it
                t -> { t.put(valid.withState(ReplicaState.STALE)); return null; },                 // made stale
                t -> { t.delete(entry(1, ReplicaState.VALID, "r1").key()); return null; },        // dropped
                t -> { t.put(entry(0, ReplicaState.VALID, "r0-rebuilt")); return null; },         // replaced by a new build
                t -> { t.put(entry(2, ReplicaState.VALID, "r2")); return null; },                 // a new replica published
                t -> { t.putFile(uri, new FileRecord(2, 1, id)); return null; },                  // a writer session began
                t -> { t.enqueue(new byte[]{9}, false); return null; });                          // even a change elsewhere
        for (int i = 0; i < changes.size(); i++) {
            assertTrue(look(access).reused(), "before change " + i);
            commit(changes.get(i));
            int before = access.transactions.get();
            assertFalse(look(access).reused(), "change " + i + ": the old look-up was reused");
            assertEquals(before + 1, access.transactions.get());
        }
        // the same through a catalog kept open in this process (the daemon's, or a test's), whose writes change the stamp too
        try (Catalog kept = Catalog.open(db)) {
            assertTrue(StampedLookups.read(kept, driver, uri, p -> { }).reused());
            kept.transact(t -> { t.put(valid.withState(ReplicaState.DIRTY)); return null; });
            StampedLookups.Answer a = StampedLookups.read(kept, driver, uri, p -> { });
            assertFalse(a.reused());
            assertEquals(ReplicaState.DIRTY, a.lookup().entries().stream().filter(e -> e.key().equals(valid.key())).findFirst().orElseThrow().state());
        }
    }

    @Test
    void anOutsideChangeToTheOriginalIsCaughtWithTheLookUpKept() throws Exception {
        commit(t -> { t.put(entry(0, ReplicaState.VALID, "r0")); return null; });
        Counting access = new Counting(db);
        look(access);
        assertTrue(look(access).reused());
        // rewritten in place, same size, modification time put back (cp -p): the change stamp (ctime) moves
        FileTime mtime = Files.getLastModifiedTime(file);
        Thread.sleep(10);
        byte[] other = new byte[SIZE];
        other[100] = 1;
        Files.write(file, other);
        Files.setLastModifiedTime(file, mtime);
        StampedLookups.Answer a = look(access);
        assertFalse(a.reused(), "rewritten in place");
        assertNotEquals(id, a.lookup().identity());
        assertTrue(look(access).reused());
        // truncated
        try (var ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(SIZE / 2);
        }
        assertFalse(look(access).reused(), "truncated");
        assertTrue(look(access).reused());
        // replaced by renaming another file over it, its times put back
        FileTime t2 = Files.getLastModifiedTime(file);
        Path copy = dir.resolve("copy");
        Files.write(copy, new byte[SIZE / 2]);
        Files.setLastModifiedTime(copy, t2);
        Files.move(copy, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        assertFalse(look(access).reused(), "replaced by a rename");
        // deleted: the open's look-up fails as it did without the cache (the probe), nothing reused
        Files.delete(file);
        assertThrows(IOException.class, () -> StampedLookups.read(access, driver, uri, p -> { }));
    }

    @Test
    void aWriterThatDiesBetweenItsStampAndItsCommitMakesReadersReadAgain() throws IOException {
        ReplicaEntry valid = entry(0, ReplicaState.VALID, "r0");
        commit(t -> { t.put(valid); return null; });
        Counting access = new Counting(db);
        look(access);
        assertTrue(look(access).reused());
        String before = stamp();
        Catalog.afterStampChangeForTest = () -> {
            throw new IllegalStateException("crash between the stamp and the commit");
        };
        try (Catalog c = Catalog.open(db)) {
            assertThrows(IllegalStateException.class, () -> c.transact(t -> { t.put(valid.withState(ReplicaState.DIRTY)); return null; }));
        } finally {
            Catalog.afterStampChangeForTest = null;
        }
        assertNotEquals(before, stamp(), "the stamp changed before the (failed) commit");
        int txns = access.transactions.get();
        StampedLookups.Answer a = look(access);
        assertFalse(a.reused(), "the look-up was reused after a writer's stamp");
        assertEquals(txns + 1, access.transactions.get());
        assertEquals(ReplicaState.VALID, a.lookup().entries().get(0).state(), "the aborted write left the entry as it was");
        assertTrue(look(access).reused());
    }

    /**
     * A catalog kept open in this process, written by one thread while others look the file up: a look-up, reused or
     * read, is never older than the last commit that returned before it began. The writer's generations count up;
     * were the stamp changed before the writer's rows were in place (or not at all), a reader could take the new stamp
     * with the old rows and reuse them after the commit.
     */
    @Test
    void lookUpsConcurrentWithWritersInOneProcessAreNeverOlderThanTheLastCommit() throws Exception {
        try (Catalog kept = Catalog.open(db)) {
            kept.transact(t -> { t.put(entry(0, ReplicaState.VALID, "r0")); t.putFile(uri, new FileRecord(0, 0, id)); return null; });
            java.util.concurrent.atomic.AtomicLong committed = new java.util.concurrent.atomic.AtomicLong();
            java.util.concurrent.atomic.AtomicLong reused = new java.util.concurrent.atomic.AtomicLong();
            java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
            long end = System.nanoTime() + 3_000_000_000L;
            Thread writer = new Thread(() -> {
                try {
                    for (long g = 1; System.nanoTime() < end && failure.get() == null; g++) {
                        long gen = g;
                        kept.transact(t -> { t.putFile(uri, new FileRecord(gen, 0, id)); return null; });
                        committed.set(gen);
                        Thread.sleep(g % 3 == 0 ? 5 : 0);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                readers.add(new Thread(() -> {
                    try {
                        while (System.nanoTime() < end && failure.get() == null) {
                            long before = committed.get();
                            StampedLookups.Answer a = StampedLookups.read(kept, driver, uri, p -> { });
                            if (a.reused()) reused.incrementAndGet();
                            long seen = a.lookup().file().generation();
                            if (seen < before) throw new AssertionError("a look-up (reused: " + a.reused() + ") of generation " + seen
                                    + " after generation " + before + " had committed");
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            writer.start();
            readers.forEach(Thread::start);
            writer.join();
            for (Thread t : readers) t.join();
            if (failure.get() != null) throw new AssertionError(failure.get());
            assertTrue(committed.get() > 10, "the writer committed " + committed.get());
            assertTrue(reused.get() > 0, "no look-up was reused: the test saw only full reads");
        }
    }

    /** Writes the schema-version record as a test or an old tool would, in a catalog kept open. */
    static void setVersion(Catalog c, int version) {
        Database meta = CatalogRows.database(c, "meta");
        JeTransactions.run(c.envForTest(), 1, txn -> {
            SchemaVersion.write(meta, txn, version);
            return null;
        });
    }

    @Test
    void aCatalogOfTheVersionBeforeStampsIsNeverTrustedAndIsMovedToTheStampedVersionWithANewStamp() throws IOException {
        ReplicaEntry valid = entry(0, ReplicaState.VALID, "r0");
        commit(t -> { t.put(valid); return null; });
        // (1) inside a transaction that finds version 1, no stamp is taken, so nothing is remembered or reused
        try (Catalog kept = Catalog.open(db)) {
            setVersion(kept, Catalog.VERSION_WITHOUT_STAMP);
            assertEquals(Optional.empty(), kept.transact(CatalogTxn::changeStamp));
            assertFalse(StampedLookups.read(kept, driver, uri, p -> { }).reused());
            assertFalse(StampedLookups.read(kept, driver, uri, p -> { }).reused(), "a look-up taken on a version 1 catalog was reused");
            setVersion(kept, Catalog.SCHEMA_VERSION);
        }
        // (2) a catalog an older build wrote: version 1, no stamp file (the older build never makes one) or one left by
        // this build before a downgrade, and a row changed without touching it. This build's first open moves it to
        // version 2 with a new stamp, so a look-up remembered before (on version 2) is not reused
        Counting access = new Counting(db);
        look(access);
        assertTrue(look(access).reused());
        String before = stamp();
        try (Catalog c = Catalog.open(db)) {
            setVersion(c, Catalog.VERSION_WITHOUT_STAMP);
            CatalogRows.put(c, "replicas", PatternCodec.keyBytes(valid.key()), valid.withState(ReplicaState.DIRTY).toBytes());
        }
        assertEquals(before, stamp(), "the old writer did not change the stamp");
        try (Catalog c = Catalog.open(db)) {   // an open of this build: the daemon's next transaction, say
            assertNotEquals(before, stamp(), "the move to version 2 wrote a new stamp");
            assertEquals(Catalog.SCHEMA_VERSION, SchemaVersion.read(CatalogRows.database(c, "meta"), null).getAsInt());
        }
        StampedLookups.Answer a = look(access);
        assertFalse(a.reused(), "a look-up was reused across an older build's write");
        assertEquals(ReplicaState.DIRTY, a.lookup().entries().get(0).state());
        // and without a stamp file at all (a catalog an older build made): the open makes one, reads, remembers
        try (Catalog c = Catalog.open(db)) {
            setVersion(c, Catalog.VERSION_WITHOUT_STAMP);
        }
        Files.delete(db.resolve(Catalog.STAMP_FILE));
        assertFalse(look(access).reused());
        assertTrue(look(access).reused(), "once at version 2 with a stamp, look-ups are reused again");
        // (3) a build that writes version 1 (one from before the stamp) refuses the catalog from now on, so no writer
        // that ignores the stamp can open it again
        try (Catalog c = Catalog.open(db)) {
            assertThrows(SchemaMismatchException.class, () -> JeTransactions.run(c.envForTest(), 1, txn -> {
                new SchemaVersion("replica catalog", Catalog.VERSION_WITHOUT_STAMP).check(CatalogRows.database(c, "meta"), txn, db, false, false);
                return null;
            }));
        }
    }

    @Test
    void aMissingOrDamagedStampOrAFullCacheFallsBackToTheFullLookUp() throws IOException {
        commit(t -> { t.put(entry(0, ReplicaState.VALID, "r0")); return null; });
        Counting access = new Counting(db);
        look(access);
        assertTrue(look(access).reused());
        Files.delete(db.resolve(Catalog.STAMP_FILE));
        assertFalse(look(access).reused(), "no stamp file");
        assertFalse(look(access).reused(), "nothing remembered without a stamp");
        commit(t -> { t.put(entry(1, ReplicaState.VALID, "r1")); return null; });   // a write makes a new one
        look(access);
        assertTrue(look(access).reused());
        Files.writeString(db.resolve(Catalog.STAMP_FILE), "damaged");
        assertFalse(look(access).reused(), "a damaged stamp");
        Files.delete(db.resolve(Catalog.STAMP_FILE));
        Files.createDirectory(db.resolve(Catalog.STAMP_FILE));   // unreadable as a file
        assertFalse(look(access).reused());
        Files.delete(db.resolve(Catalog.STAMP_FILE));
        commit(t -> { t.put(entry(2, ReplicaState.VALID, "r2")); return null; });
        // more files than it keeps: the least recently used goes, nothing fails
        look(access);
        List<URI> others = new ArrayList<>();
        for (int i = 0; i < StampedLookups.MAX_FILES; i++) {
            Path f = dir.resolve("f" + i);
            Files.write(f, new byte[1]);
            others.add(f.toUri());
            StampedLookups.read(access, driver, f.toUri(), p -> { });
        }
        assertFalse(look(access).reused(), "the first file's look-up should have been dropped");
        assertTrue(StampedLookups.read(access, driver, others.get(StampedLookups.MAX_FILES - 1), p -> { }).reused());
    }
}
