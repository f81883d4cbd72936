package io.pdla.replicator;

import io.pdla.catalog.FileIdentity;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.catalog.guard.InStepMark;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.daemon.WriteBack;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The in-step mark decides what a write-back copies (issue 18: a user who can write the catalog cannot make the
 * daemon overwrite a file). One user here; the two-user attack is redirect's {@code ReplicaSecurityTest}.
 */
class InStepMarkTest {
    static final int SIZE = 64 << 10, REQ = 2048;

    @TempDir
    Path tmp;

    private final StorageDriver posix = StorageDrivers.installed().forUri(URI.create("file:///"));

    private static KeyedPattern pattern(Path file) {
        return KeyedPattern.of(new PatternKey(new AppIdentity("mark", 1), 0, file.toUri()), Geometry.strided(REQ, REQ, 4 * REQ, 8));
    }

    private static ReplicaEntry entry(Fixture fx, KeyedPattern p) throws Exception {
        return fx.catalog.transact(t -> t.entry(p.key())).orElseThrow();
    }

    private static void put(Fixture fx, ReplicaEntry e) throws Exception {
        fx.catalog.transact(t -> {
            t.put(e);
            return null;
        });
    }

    private static byte[] sha(byte[] b) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(b);
    }

    /** A built replica, its original's bytes, and a check that marks work on this file system. */
    private record Built(Path file, byte[] original, KeyedPattern p, Path replica) {
    }

    /** Skips unless the file system under {@code dir} keeps user extended attributes (the driver says UNSUPPORTED). */
    private void assumeMarksKept(Path dir) throws IOException {
        Path probe = Files.createTempFile(dir, "xattr-probe", "");
        try {
            posix.setMark(probe.toUri(), "probe", new byte[]{1});
        } catch (StorageException e) {
            if (e.reason() != StorageException.Reason.UNSUPPORTED) throw e;
            org.junit.jupiter.api.Assumptions.abort("the file system under " + dir + " keeps no user extended attributes: " + e.getMessage());
        } finally {
            Files.deleteIfExists(probe);
        }
    }

    private Built build(Fixture fx, String name, long seed) throws Exception {
        return build(fx, name, seed, InStepMarkTest::pattern);
    }

    private Built build(Fixture fx, String name, long seed, java.util.function.Function<Path, KeyedPattern> patternOf) throws Exception {
        Path file = tmp.resolve(name);
        byte[] original = Fixture.writeRandomFile(file, SIZE, seed);
        KeyedPattern p = patternOf.apply(file);
        fx.replication.queue.offer(p);
        assertEquals(1, fx.replication.daemon.runOnce().published(), fx.progress.toString());
        Path replica = Path.of(entry(fx, p).replica());
        assumeMarksKept(replica.getParent());
        // where the file system keeps marks, the build must have set one: its absence is a failure, not a skip
        assertTrue(InStepMark.present(posix, replica.toUri()), "the built replica " + replica + " carries no in-step mark");
        return new Built(file, original, p, replica);
    }

    /** Four ranks' IOR-strided patterns of one file as one replica, rank after rank (what online PDLA combines). */
    private static KeyedPattern combined(Path file) {
        Geometry rank0 = Geometry.strided(0, REQ, 4 * REQ, 8);
        return KeyedPattern.of(new PatternKey(new AppIdentity("mark", 4), 0, file.toUri()).asGlobal(), Geometry.grouped(rank0, 4, REQ));
    }

    /** The mark of a content in regions of {@code region} bytes, taken from the regions' own digests. */
    private static InStepMark.Mark regionsMark(byte[] content, int region) throws Exception {
        List<byte[]> digests = new java.util.ArrayList<>();
        for (int at = 0; at < content.length; at += region) {
            digests.add(sha(java.util.Arrays.copyOfRange(content, at, Math.min(content.length, at + region))));
        }
        return InStepMark.Mark.ofRegions(region, digests);
    }

    @Test
    void aCombinedReplicaIsMarkedWithItsRegionsDigestsTakenWhileCopying() throws Exception {
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve("fx")))) {
            Built b = build(fx, "g.dat", 11, InStepMarkTest::combined);
            byte[] content = Fixture.patternBytes(b.p(), b.original());
            assertArrayEquals(content, Files.readAllBytes(b.replica()));
            InStepMark.Mark mark = InStepMark.read(posix, b.replica().toUri()).orElseThrow();
            int region = 8 * REQ;
            assertEquals(region, mark.regionBytes(), "one region per rank");
            assertEquals(regionsMark(content, region), mark);
            assertEquals(mark, InStepMark.digestOf(posix, b.replica().toUri(), content.length, mark), "read back, the content is the marked one");
            assertNotEquals(InStepMark.Mark.whole(sha(content)), mark);
        }
    }

    @Test
    void aWriterChangedCombinedReplicaIsWrittenBackAndMarkedInItsRegionsAgain() throws Exception {
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve("fx")))) {
            Built b = build(fx, "h.dat", 12, InStepMarkTest::combined);
            put(fx, entry(fx, b.p()).withState(ReplicaState.DIRTY));
            byte[] fresh = Files.readAllBytes(b.replica());
            fresh[3 * 8 * REQ + 5] ^= 0x5a;   // one byte of rank 3's region
            Files.write(b.replica(), fresh);
            List<String> notes = new WriteBack(fx.catalog, StorageDrivers.installed()).writeBack(b.file().toUri());
            assertTrue(String.join("\n", notes).contains("wrote back"), notes.toString());
            byte[] want = b.original().clone();
            java.nio.ByteBuffer src = java.nio.ByteBuffer.wrap(fresh);
            b.p().geometry().forEachExtent((o, l) -> src.get(want, (int) o, (int) l));
            assertArrayEquals(want, Files.readAllBytes(b.file()), "the writer's byte is in the original");
            assertEquals(ReplicaState.VALID, entry(fx, b.p()).state());
            assertEquals(regionsMark(fresh, 8 * REQ), InStepMark.read(posix, b.replica().toUri()).orElseThrow(), "the mark follows the write-back");
            put(fx, entry(fx, b.p()).withState(ReplicaState.DIRTY));
            notes = new WriteBack(fx.catalog, StorageDrivers.installed()).writeBack(b.file().toUri());
            assertTrue(String.join("\n", notes).contains("not copied") && String.join("\n", notes).contains("VALID again"), notes.toString());
        }
    }

    @Test
    void aDigestTakenInPiecesOfAnySizeIsTheMarkOfItsWholeOrOfItsRegions() throws Exception {
        long seed = System.nanoTime();   // printed with a failure, to replay it
        Random r = new Random(seed);
        for (int round = 0; round < 200; round++) {
            byte[] content = new byte[r.nextInt(3) == 0 ? r.nextInt(64) : r.nextInt(20_000)];
            r.nextBytes(content);
            int region = 1 + r.nextInt(r.nextBoolean() ? 64 : 8192);
            InStepMark.Digest whole = InStepMark.Digest.of(0), regions = InStepMark.Digest.of(region);
            for (int at = 0; at < content.length; ) {
                int n = Math.min(content.length - at, r.nextInt(3) == 0 ? 1 : 1 + r.nextInt(3 * region));
                java.nio.ByteBuffer piece = r.nextBoolean() ? java.nio.ByteBuffer.wrap(content, at, n)
                        : java.nio.ByteBuffer.allocateDirect(n).put(content, at, n).flip();
                int pos = piece.position();
                whole.update(piece);
                regions.update(piece);
                assertEquals(pos, piece.position(), "a digest leaves the buffer's position alone");
                at += n;
            }
            String what = "seed " + seed + " round " + round + ": " + content.length + " bytes, regions of " + region;
            assertEquals(InStepMark.Mark.whole(sha(content)), whole.finish(), what);
            assertEquals(regionsMark(content, region), regions.finish(), what);
        }
    }

    @Test
    void marksOfBothKindsAreReadAsRecordedAndMalformedOnesAsNone() throws Exception {
        Path f = Files.createFile(tmp.resolve("m"));
        assumeMarksKept(tmp);
        byte[] d = sha(new byte[]{1, 2, 3});
        for (InStepMark.Mark m : List.of(InStepMark.Mark.whole(d), new InStepMark.Mark(1 << 20, d))) {
            assertTrue(InStepMark.record(posix, f.toUri(), m));
            assertEquals(m, InStepMark.read(posix, f.toUri()).orElseThrow());
        }
        byte[] zeroRegion = new byte[41];
        zeroRegion[0] = 2;
        for (byte[] bad : List.of(new byte[]{0}, new byte[33], zeroRegion, java.util.Arrays.copyOf(zeroRegion, 40))) {
            posix.setMark(f.toUri(), InStepMark.NAME, bad);
            assertTrue(InStepMark.read(posix, f.toUri()).isEmpty(), "a mark of " + bad.length + " bytes, kind " + bad[0]);
        }
    }

    @Test
    void aBuiltReplicaIsMarkedWithTheDigestOfItsBytes() throws Exception {
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve("fx")))) {
            Built b = build(fx, "a.dat", 1);
            byte[] content = Fixture.patternBytes(b.p(), b.original());
            assertArrayEquals(content, Files.readAllBytes(b.replica()));
            assertEquals(InStepMark.Mark.whole(sha(content)), InStepMark.read(posix, b.replica().toUri()).orElseThrow());
        }
    }

    @Test
    void aWriterChangedDirtyReplicaIsWrittenBackAndMarkedInStepAgain() throws Exception {
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve("fx")))) {
            Built b = build(fx, "b.dat", 2);
            put(fx, entry(fx, b.p()).withState(ReplicaState.DIRTY));
            byte[] fresh = new byte[(int) b.p().totalBytes()];
            new Random(3).nextBytes(fresh);
            Files.write(b.replica(), fresh);   // same inode: what a writer through redirect does
            List<String> notes = new WriteBack(fx.catalog, StorageDrivers.installed()).writeBack(b.file().toUri());
            assertTrue(String.join("\n", notes).contains("wrote back"), notes.toString());
            byte[] want = b.original().clone();
            java.nio.ByteBuffer src = java.nio.ByteBuffer.wrap(fresh);
            b.p().geometry().forEachExtent((o, l) -> src.get(want, (int) o, (int) l));
            assertArrayEquals(want, Files.readAllBytes(b.file()), "the writer's bytes are in the original");
            assertEquals(ReplicaState.VALID, entry(fx, b.p()).state());
            assertEquals(InStepMark.Mark.whole(sha(fresh)), InStepMark.read(posix, b.replica().toUri()).orElseThrow(), "the mark follows the write-back");
            // flipped DIRTY again with nothing written since: nothing to copy, and nothing is
            put(fx, entry(fx, b.p()).withState(ReplicaState.DIRTY));
            notes = new WriteBack(fx.catalog, StorageDrivers.installed()).writeBack(b.file().toUri());
            assertTrue(String.join("\n", notes).contains("not copied") && String.join("\n", notes).contains("VALID again"), notes.toString());
            assertEquals(ReplicaState.VALID, entry(fx, b.p()).state());
        }
    }

    @Test
    void aGenuineReplicaFlippedToDirtyAfterItsOriginalChangedIsNeverCopiedBack() throws Exception {
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve("fx")))) {
            Built b = build(fx, "c.dat", 4);
            byte[] newer = Fixture.writeRandomFile(b.file(), SIZE, 5);   // the owner rewrites the file
            // the forger: DIRTY, and whatever the catalog holds made to look current
            ReplicaEntry e = entry(fx, b.p());
            put(fx, e.withState(ReplicaState.DIRTY).withIdentity(FileIdentity.probe(posix, b.file().toUri())));
            fx.replication.daemon.runOnce();
            assertArrayEquals(newer, Files.readAllBytes(b.file()), "the daemon copied the replica's older bytes over the original");
            ReplicaEntry now = entry(fx, b.p());
            assertNotEquals(ReplicaState.DIRTY, now.state());
            assertArrayEquals(Fixture.patternBytes(b.p(), newer), Files.readAllBytes(Path.of(now.replica())), "rebuilt from the newer original");
        }
    }

    @Test
    void aWriteBackCutBetweenTheMarkAndTheCatalogEndsVALIDWithoutCopyingAgain() throws Exception {
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve("fx")))) {
            Built b = build(fx, "d.dat", 6);
            put(fx, entry(fx, b.p()).withState(ReplicaState.DIRTY));
            byte[] fresh = new byte[(int) b.p().totalBytes()];
            new Random(7).nextBytes(fresh);
            Files.write(b.replica(), fresh);
            // the halted write-back had copied and marked, the catalog still says DIRTY
            java.nio.ByteBuffer src = java.nio.ByteBuffer.wrap(fresh);
            byte[] want = b.original().clone();
            b.p().geometry().forEachExtent((o, l) -> src.get(want, (int) o, (int) l));
            Files.write(b.file(), want);
            assertTrue(InStepMark.record(posix, b.replica().toUri(), InStepMark.Mark.whole(sha(fresh))));
            List<String> notes = new WriteBack(fx.catalog, StorageDrivers.installed()).writeBack(b.file().toUri());
            assertTrue(String.join("\n", notes).contains("VALID again"), notes.toString());
            assertEquals(ReplicaState.VALID, entry(fx, b.p()).state());
            assertArrayEquals(want, Files.readAllBytes(b.file()));
        }
    }

    @Test
    void aDirtyReplicaWithoutAMarkOrWithAWithdrawnOneIsNotWrittenBackAndStaysDirty() throws Exception {
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve("fx")))) {
            for (String how : List.of("removed", "withdrawn")) {
                Built b = build(fx, how + ".dat", how.length());
                if (how.equals("removed")) Files.getFileAttributeView(b.replica(), UserDefinedFileAttributeView.class).delete("pdla." + InStepMark.NAME);
                else assertTrue(InStepMark.withdraw(posix, b.replica().toUri()));
                assertFalse(InStepMark.present(posix, b.replica().toUri()));
                put(fx, entry(fx, b.p()).withState(ReplicaState.DIRTY));
                byte[] changed = Files.readAllBytes(b.replica());
                Arrays.fill(changed, 0, 100, (byte) 1);
                Files.write(b.replica(), changed);
                List<String> notes = new WriteBack(fx.catalog, StorageDrivers.installed()).writeBack(b.file().toUri());
                assertTrue(String.join("\n", notes).contains("no in-step mark"), how + ": " + notes);
                assertArrayEquals(b.original(), Files.readAllBytes(b.file()), how);
                assertEquals(ReplicaState.DIRTY, entry(fx, b.p()).state(), how);
            }
        }
    }

    /** A writer's DIRTY replica, then a catalog writer's flip back to VALID hiding its writes (issue 18). */
    private byte[] writeThenHide(Fixture fx, Built b, long seed) throws Exception {
        put(fx, entry(fx, b.p()).withState(ReplicaState.DIRTY));
        byte[] fresh = new byte[(int) b.p().totalBytes()];
        new Random(seed).nextBytes(fresh);
        Files.write(b.replica(), fresh);   // same inode: what a writer through redirect does
        put(fx, entry(fx, b.p()).withState(ReplicaState.VALID));
        return fresh;
    }

    private static byte[] withPattern(byte[] original, KeyedPattern p, byte[] replica) {
        byte[] want = original.clone();
        java.nio.ByteBuffer src = java.nio.ByteBuffer.wrap(replica);
        p.geometry().forEachExtent((o, l) -> src.get(want, (int) o, (int) l));
        return want;
    }

    @Test
    void aReplicaHoldingWritesIsWrittenBackBeforeTheBuilderReplacesIt() throws Exception {
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve("fx")))) {
            Built b = build(fx, "e.dat", 8);
            byte[] fresh = writeThenHide(fx, b, 9);
            put(fx, entry(fx, b.p()).withState(ReplicaState.STALE));   // the builder, not the scanner, sees it first
            var placement = fx.replication.builder.planner().onHServers(b.p(), null, 0);
            var outcome = fx.replication.builder.build(b.p(), placement);
            assertEquals(io.pdla.replicator.construct.BuildOutcome.Kind.DEFERRED, outcome.kind(), outcome.toString());
            assertEquals(ReplicaState.DIRTY, entry(fx, b.p()).state(), "the replica holding writes is DIRTY again");
            assertTrue(Files.exists(b.replica()), "the builder deleted a replica holding writes");
            fx.replication.daemon.runOnce();
            assertArrayEquals(withPattern(b.original(), b.p(), fresh), Files.readAllBytes(b.file()), "the writes reached the original: " + fx.progress);
        }
    }

    /**
     * The never-stale rule for a DIRTY replica whose original also changed outside pdla holds for one hidden as
     * VALID: its acknowledged writes win in the pattern's region (as a DIRTY one's do), the outside change
     * survives everywhere else.
     */
    @Test
    void aHiddenReplicaOfAnOriginalChangedOutsidePdlaIsWrittenBackAsADirtyOneWouldBe() throws Exception {
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve("fx")))) {
            Built b = build(fx, "f.dat", 10);
            byte[] fresh = writeThenHide(fx, b, 11);
            byte[] newer = Fixture.writeRandomFile(b.file(), SIZE, 12);   // the owner, outside pdla
            fx.replication.daemon.runOnce();
            assertArrayEquals(withPattern(newer, b.p(), fresh), Files.readAllBytes(b.file()), fx.progress.toString());
        }
    }

    @Test
    void aReplicaWithoutAMarkWhoseEntryGoesIsKeptNotDeletedAndNotCopied() throws Exception {
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve("fx")))) {
            Built b = build(fx, "g.dat", 13);
            assertTrue(InStepMark.withdraw(posix, b.replica().toUri()));
            byte[] changed = Files.readAllBytes(b.replica());
            Arrays.fill(changed, 0, 100, (byte) 1);
            Files.write(b.replica(), changed);
            put(fx, entry(fx, b.p()).withState(ReplicaState.STALE));
            fx.replication.daemon.runOnce();
            assertArrayEquals(changed, Files.readAllBytes(b.replica()), "kept as it was");
            assertArrayEquals(b.original(), Files.readAllBytes(b.file()), "an unvouched replica was copied");
            ReplicaEntry now = entry(fx, b.p());
            assertNotEquals(b.replica(), Path.of(now.replica()), "rebuilt beside it");
            assertEquals(ReplicaState.VALID, now.state());
        }
    }

    @Test
    void aReplicaInStepWithItsMarkIsStillRemovedWhenStale() throws Exception {
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve("fx")))) {
            Built b = build(fx, "h.dat", 14);
            put(fx, entry(fx, b.p()).withState(ReplicaState.STALE));
            fx.replication.daemon.runOnce();
            assertFalse(Files.exists(b.replica()), "nothing to keep: its content is its mark");
            assertArrayEquals(b.original(), Files.readAllBytes(b.file()));
        }
    }
}
