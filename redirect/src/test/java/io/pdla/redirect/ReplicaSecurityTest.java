package io.pdla.redirect;

import io.pdla.catalog.Catalog;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.catalog.replica.ReplicaNames;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.Fixture;
import io.pdla.replicator.OtherUser;
import io.pdla.replicator.construct.ReplicaBuilder;
import io.pdla.replicator.daemon.DaemonMain;
import io.pdla.replicator.queue.CatalogPatternQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Replicas that cannot leak or be planted (issue 18, "Security"), with a real second user ({@link OtherUser},
 * child JVMs run as {@code pdlatest} with runuser; skipped with the reason printed when not root):
 * <ul>
 * <li>a replica gets its original's owner and group and no wider permissions; the other user cannot read a
 * replica of a file they cannot read, also after the original's permissions were narrowed (the change stamp
 * moves with chmod, the daemon rebuilds);</li>
 * <li>catalog entries are data: a replica outside the replica folder, behind a planted symbolic link, of
 * another owner or with wider permissions is never served nor takes writes;</li>
 * <li>the daemon cannot be made to write a forged DIRTY replica into a file, nor to delete a file a forged
 * journal row names; a daemon that cannot give a replica its owner refuses to build it.</li>
 * </ul>
 */
class ReplicaSecurityTest {
    static final int SIZE = 128 << 10, REQ = 4096, STRIDE = 2 * REQ, COUNT = 12;

    @TempDir
    Path tmp;

    private static KeyedPattern pattern(Path file) {
        return KeyedPattern.of(new PatternKey(new AppIdentity("app", 1), 0, file.toUri()), Geometry.strided(0, REQ, STRIDE, COUNT));
    }

    private static String perms(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS).permissions());
    }

    private static ReplicaEntry entry(Fixture fx, KeyedPattern p) throws Exception {
        return fx.catalog.transact(t -> t.entry(p.key())).orElseThrow();
    }

    private static ReplicaEntry withReplica(ReplicaEntry e, URI replica, ReplicaState state) {
        return new ReplicaEntry(e.pattern(), replica, e.layout(), e.layoutNote(), e.space(), e.benefitSeconds(), e.bytesPerSServer(),
                state, e.identity(), e.generation(), e.builtAtMillis());
    }

    // ---- owner, group, permissions; the second user -------------------------------------------------------

    @Test
    void aReplicaHasItsOriginalsOwnerGroupAndNoWiderPermissionsAndTheOtherUserCannotReadWhatTheyCannotReadInTheOriginal() throws Exception {
        OtherUser.assumeAvailable();
        OtherUser.openUp(tmp);
        Path mine = Files.createDirectories(tmp.resolve("pdlatest-data"));
        Path rootData = Files.createDirectories(tmp.resolve("root-data"));
        OtherUser.openUp(rootData);
        Path theirs = mine.resolve("theirs.dat");
        byte[] theirBytes = Fixture.writeRandomFile(theirs, SIZE, 1);
        Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rw-r-----"));
        OtherUser.give(mine);
        Path secret = rootData.resolve("secret.dat");
        Fixture.writeRandomFile(secret, SIZE, 2);
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        Path shared = rootData.resolve("shared.dat");
        byte[] sharedBytes = Fixture.writeRandomFile(shared, SIZE, 3);
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rw-r--r--"));

        Path catalogCopy = tmp.resolve("catalog-of-pdlatest");
        Path secretReplica, sharedReplica, theirReplica;
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve("fx")))) {
            for (Path f : List.of(theirs, secret, shared)) fx.replication.queue.offer(pattern(f));
            assertEquals(3, fx.replication.daemon.runOnce().published(), fx.progress.toString());
            theirReplica = Path.of(entry(fx, pattern(theirs)).replica());
            secretReplica = Path.of(entry(fx, pattern(secret)).replica());
            sharedReplica = Path.of(entry(fx, pattern(shared)).replica());

            PosixFileAttributes t = Files.readAttributes(theirReplica, PosixFileAttributes.class);
            assertEquals(OtherUser.NAME, t.owner().getName(), "replica of pdlatest's file belongs to pdlatest");
            assertEquals(OtherUser.NAME, t.group().getName(), "and to its group");
            assertEquals("rw-r-----", perms(theirReplica));
            assertEquals(OtherUser.NAME, Files.getOwner(theirReplica.getParent()).getName(), "its key directory too");
            assertEquals("rwxr-x---", perms(theirReplica.getParent()));
            assertEquals("root", Files.getOwner(secretReplica).getName());
            assertEquals("rw-------", perms(secretReplica), "never wider than the original");
            assertEquals("rwx------", perms(secretReplica.getParent()));
            assertEquals("rw-r--r--", perms(sharedReplica));
        }
        copyCatalogFor(tmp.resolve("fx").resolve("catalog"), catalogCopy);

        // the other user: cannot read the replica of a file they cannot read; can read those of files they can
        assertTrue(OtherUser.java(ReadAsOtherUser.class, "direct", secretReplica.toString()).output().startsWith("DENIED"),
                "pdlatest read the replica of root's private file");
        assertTrue(OtherUser.java(ReadAsOtherUser.class, "direct", theirReplica.toString()).output().startsWith("READ"));
        String viaRedirect = OtherUser.java(ReadAsOtherUser.class, "redirect", catalogCopy.toString(), theirs.toString(), "0", String.valueOf(REQ)).output();
        assertEquals("READ " + ReadAsOtherUser.sha(Arrays.copyOfRange(theirBytes, 0, REQ)) + " fromReplica=1 refused=0", viaRedirect.strip(),
                "pdlatest's own replica serves pdlatest");
        String shared1 = OtherUser.java(ReadAsOtherUser.class, "redirect", catalogCopy.toString(), shared.toString(), "0", String.valueOf(REQ)).output();
        assertEquals("READ " + ReadAsOtherUser.sha(Arrays.copyOfRange(sharedBytes, 0, REQ)) + " fromReplica=1 refused=0", shared1.strip(),
                "a replica of a file both can read serves both");

        // root narrows the original: chmod moves the change stamp, the daemon's next pass rebuilds with the new permissions
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rw-------"));
        try (Fixture fx = new Fixture(tmp.resolve("fx"))) {
            fx.replication.daemon.runOnce();
            Path rebuilt = Path.of(entry(fx, pattern(shared)).replica());
            assertEquals("rw-------", perms(rebuilt), fx.progress.toString());
            assertFalse(Files.exists(sharedReplica) && !rebuilt.equals(sharedReplica), "the wider replica is gone");
            assertTrue(OtherUser.java(ReadAsOtherUser.class, "direct", rebuilt.toString()).output().startsWith("DENIED"));
        }
        String shared2 = OtherUser.java(ReadAsOtherUser.class, "redirect", catalogCopy.toString(), shared.toString(), "0", String.valueOf(REQ)).output();
        assertTrue(shared2.startsWith("DENIED"), "pdlatest can no longer read the original nor its replica: " + shared2);
    }

    /** The other user's own copy of the catalog (JE needs write access to its directory to open it). */
    private static void copyCatalogFor(Path from, Path to) throws Exception {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(q);
                else if (!p.getFileName().toString().equals("je.lck")) Files.copy(p, q, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        OtherUser.give(to);
    }

    @Test
    void aDaemonThatCannotGiveAReplicaItsOwnerRefusesToBuildIt() throws Exception {
        OtherUser.assumeAvailable();
        OtherUser.openUp(tmp);
        Path rootData = Files.createDirectories(tmp.resolve("root-data"));
        OtherUser.openUp(rootData);
        Path rootFile = rootData.resolve("root.dat");
        Fixture.writeRandomFile(rootFile, SIZE, 4);
        Files.setPosixFilePermissions(rootFile, PosixFilePermissions.fromString("rw-r--r--"));
        Path mine = Files.createDirectories(tmp.resolve("pdlatest-data"));
        Path own = mine.resolve("own.dat");
        Fixture.writeRandomFile(own, SIZE, 5);
        OtherUser.give(mine);
        Path db = tmp.resolve("catalog");
        try (Catalog c = Catalog.open(db)) {
            CatalogPatternQueue q = new CatalogPatternQueue(c);
            q.offer(pattern(rootFile));
            q.offer(pattern(own));
        }
        OtherUser.give(db);
        OtherUser.Result r = OtherUser.java(DaemonMain.class, "--db", db.toString(), "--once");
        assertEquals(0, r.exit(), r.output());
        assertTrue(r.output().contains("cannot give a replica of " + rootFile + " its owner root"), r.output());
        assertTrue(r.output().contains("1 published") && r.output().contains("1 rejected"), r.output());
        assertFalse(Files.exists(rootData.resolve(".pdla-replicas")), "nothing was created for root's file");
        try (Catalog c = Catalog.open(db)) {
            assertTrue(c.transact(t -> t.entry(pattern(rootFile).key())).isEmpty());
            Path replica = Path.of(c.transact(t -> t.entry(pattern(own).key())).orElseThrow().replica());
            assertEquals(OtherUser.NAME, Files.getOwner(replica).getName());
            assertTrue(new CatalogPatternQueue(c).pending().isEmpty(), "the refused pattern left the queue (rejected, with the reason logged)");
        }
    }

    // ---- planted entries -----------------------------------------------------------------------------------

    private interface Plant {
        URI apply(Path legit, Path originalDir) throws Exception;
    }

    private void checkPlantedIsRefused(String name, boolean needsRoot, Plant plant) throws Exception {
        if (needsRoot) OtherUser.assumeAvailable();
        Path dir = Files.createDirectories(tmp.resolve(name));
        Path file = dir.resolve("data.bin");
        byte[] original = Fixture.writeRandomFile(file, SIZE, 6);
        KeyedPattern p = pattern(file);
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve(name + "-fx")))) {
            fx.replication.queue.offer(p);
            assertEquals(1, fx.replication.daemon.runOnce().published());
            ReplicaEntry built = entry(fx, p);
            URI planted = plant.apply(Path.of(built.replica()), dir);
            fx.catalog.transact(t -> {
                t.put(withReplica(built, planted, ReplicaState.VALID));
                return null;
            });
            RedirectConfig cfg = RedirectConfig.from(Map.of()).withCatalog(fx.db);
            RedirectInterceptor r = new RedirectInterceptor(cfg);
            try (ChainFile f = new ChainFile(file.toUri(), "app", 1, 0, Map.of(), List.of(r), true)) {
                for (int i = 0; i < COUNT; i++) {
                    long off = (long) i * STRIDE;
                    assertArrayEquals(Arrays.copyOfRange(original, (int) off, (int) off + REQ), f.read(off, REQ), name + ": request " + i);
                }
            }
            assertEquals(0, r.stats().readsFromReplica.get(), name + ": the planted replica served: " + r.stats());
            assertEquals(1, r.stats().replicasRefused.get(), name + ": " + r.stats());

            // nor does it take this process's writes (it would then hold data the planter can read)
            byte[] plantedBefore = Files.readAllBytes(Path.of(planted));
            RedirectInterceptor w = new RedirectInterceptor(cfg);
            byte[] data = new byte[REQ];
            new Random(7).nextBytes(data);
            try (ChainFile f = new ChainFile(file.toUri(), "app", 1, 0, Map.of(), List.of(w), false)) {
                f.write(STRIDE, data);
            }
            assertArrayEquals(plantedBefore, Files.readAllBytes(Path.of(planted)), name + ": a write went into the planted file");
            assertArrayEquals(data, Arrays.copyOfRange(Files.readAllBytes(file), STRIDE, STRIDE + REQ), name + ": the write is in the original");
            assertEquals(0, w.stats().bytesWrittenToReplica.get(), name + ": " + w.stats());

            // and the daemon removes the entry (without deleting the planted file unless it is where replicas live)
            // (a planted key directory link also makes the rebuild refuse to write through it: then no entry at all)
            fx.replication.daemon.runOnce();
            java.util.Optional<ReplicaEntry> now = fx.catalog.transact(t -> t.entry(p.key()));
            assertFalse(now.isPresent() && now.get().replica().equals(planted), name + ": the planted entry survived the daemon's pass");
            if (now.isEmpty()) assertTrue(fx.progress.toString().contains("symbolic link"), name + ": " + fx.progress);
        }
    }

    private static byte[] attackerBytes() {
        byte[] b = new byte[COUNT * REQ];
        Arrays.fill(b, (byte) 0x5a);
        return b;
    }

    @Test
    void anEntryWhosePathLeavesTheReplicaFolderIsNeverFollowed() throws Exception {
        checkPlantedIsRefused("outside", false, (legit, dir) -> {
            Path evil = Files.createDirectories(tmp.resolve("evil").resolve(legit.getParent().getFileName()));
            Path f = evil.resolve(legit.getFileName());
            Files.write(f, attackerBytes());
            return f.toUri();
        });
    }

    @Test
    void anEntryWithDotDotIsNeverFollowed() throws Exception {
        checkPlantedIsRefused("dotdot", false, (legit, dir) -> {
            Path evil = Files.createDirectories(tmp.resolve("evil2").resolve(legit.getParent().getFileName()));
            Files.write(evil.resolve(legit.getFileName()), attackerBytes());
            return URI.create(legit.getParent().toUri() + "../../../evil2/" + legit.getParent().getFileName() + "/" + legit.getFileName());
        });
    }

    @Test
    void aReplicaBehindASymbolicLinkPlantedForItsKeyDirectoryIsNeverFollowed() throws Exception {
        checkPlantedIsRefused("linked-dir", false, (legit, dir) -> {
            Path evil = Files.createDirectories(tmp.resolve("evil3"));
            Path f = evil.resolve("replica-1-deadbeef");
            Files.write(f, attackerBytes());
            Path keyDir = legit.getParent();
            Path moved = keyDir.resolveSibling("moved");
            Files.move(keyDir, moved);
            Files.createSymbolicLink(keyDir, evil);
            return keyDir.resolve("replica-1-deadbeef").toUri();
        });
    }

    @Test
    void aReplicaThatIsASymbolicLinkIsNeverFollowed() throws Exception {
        checkPlantedIsRefused("linked-file", false, (legit, dir) -> {
            Path f = tmp.resolve("evil4.bin");
            Files.write(f, attackerBytes());
            Path link = legit.resolveSibling("replica-2-deadbeef");
            Files.createSymbolicLink(link, f);
            return link.toUri();
        });
    }

    @Test
    void aReplicaOfAnotherOwnerIsNeverServed() throws Exception {
        checkPlantedIsRefused("other-owner", true, (legit, dir) -> {
            Path f = legit.resolveSibling("replica-3-deadbeef");
            Files.write(f, attackerBytes());
            Files.setOwner(f, OtherUser.user());
            return f.toUri();
        });
    }

    @Test
    void aReplicaWithWiderPermissionsThanItsOriginalIsNeverServed() throws Exception {
        checkPlantedIsRefused("wider", false, (legit, dir) -> {
            Path f = legit.resolveSibling("replica-4-deadbeef");
            Files.write(f, attackerBytes());
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-rw-rw-"));
            return f.toUri();
        });
    }

    // ---- the daemon as a tool of the planter --------------------------------------------------------------

    @Test
    void theDaemonWritesNoForgedDirtyReplicaIntoAFileAndDeletesNothingAForgedJournalNames() throws Exception {
        OtherUser.assumeAvailable();
        Path dir = Files.createDirectories(tmp.resolve("target"));
        Path file = dir.resolve("system.dat");
        byte[] original = Fixture.writeRandomFile(file, SIZE, 8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));  // pdlatest cannot write it
        Path precious = dir.resolve("precious.dat");
        byte[] preciousBytes = Fixture.writeRandomFile(precious, 4096, 9);
        KeyedPattern p = pattern(file);
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve("fx")))) {
            fx.replication.queue.offer(p);
            assertEquals(1, fx.replication.daemon.runOnce().published());
            ReplicaEntry built = entry(fx, p);
            Path keyDir = Path.of(built.replica()).getParent();
            // a DIRTY replica in the right place, but pdlatest's, full of pdlatest's bytes
            Path forged = keyDir.resolve("replica-5-deadbeef");
            Files.write(forged, attackerBytes());
            Files.setOwner(forged, OtherUser.user());
            // journal rows naming a file outside every replica folder, a link in one, and a real leftover
            Path link = keyDir.resolve("replica-6-deadbeef");
            Files.createSymbolicLink(link, precious);
            Path leftover = keyDir.resolve("replica-7-abcdef12.tmp");
            Files.write(leftover, new byte[10]);
            fx.catalog.transact(t -> {
                t.put(withReplica(built, forged.toUri(), ReplicaState.DIRTY));
                t.journal("forged-1", List.of(precious.toUri(), link.toUri(), leftover.toUri()));
                return null;
            });
            fx.replication.daemon.runOnce();
            assertArrayEquals(original, Files.readAllBytes(file), "the daemon wrote a forged replica into a file pdlatest cannot write");
            assertArrayEquals(preciousBytes, Files.readAllBytes(precious), "a forged journal row made the daemon delete a file");
            assertTrue(Files.exists(link, LinkOption.NOFOLLOW_LINKS), "the link was not followed nor removed");
            assertFalse(Files.exists(leftover), "a real leftover in a replica folder is still cleaned up");
            assertEquals(ReplicaState.DIRTY, entry(fx, p).state(), "the refused replica stays DIRTY (and its file's opens fail, naming it)");
            assertTrue(fx.catalog.transact(t -> t.journalRows()).isEmpty());
            // and `pdla sync` says why it cannot write it back
            assertTrue(String.join("\n", new io.pdla.replicator.daemon.WriteBack(fx.catalog, io.pdla.storage.StorageDrivers.installed()).writeBack(file.toUri()))
                    .contains("belongs to " + OtherUser.NAME));
        }
        assertEquals(20, ReplicaNames.keyDirName(p.key()).length());
    }

    /**
     * The main attack on write-back: a genuine replica (root's daemon built it, root owns it) of a file the other
     * user can read but not write; the file's owner then changes the file; the other user, who may write the shared
     * catalog, turns the replica DIRTY and makes every catalog field look current. Without the in-step mark the
     * daemon (root) copied the replica's older bytes over the original. Now it sees the replica's content is still
     * what it was when last in step (no writer of it changed it), copies nothing, and rebuilds the replica.
     */
    @Test
    void aCatalogWriterCannotMakeTheDaemonCopyAGenuineReplicaOverAFileTheyCannotWrite() throws Exception {
        OtherUser.assumeAvailable();
        OtherUser.openUp(tmp);
        Path dir = Files.createDirectories(tmp.resolve("root-data"));
        OtherUser.openUp(dir);
        Path file = dir.resolve("config.dat");
        Fixture.writeRandomFile(file, SIZE, 10);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));   // pdlatest reads, cannot write
        KeyedPattern p = pattern(file);
        Path fxDir = Files.createDirectories(tmp.resolve("fx"));
        Path replica;
        try (Fixture fx = new Fixture(fxDir)) {
            fx.replication.queue.offer(p);
            assertEquals(1, fx.replication.daemon.runOnce().published(), fx.progress.toString());
            replica = Path.of(entry(fx, p).replica());
        }
        assertEquals("root", Files.getOwner(replica).getName());
        assertEquals("rw-r--r--", perms(replica));
        byte[] newer = Fixture.writeRandomFile(file, SIZE, 11);   // root, the owner, rewrites the file
        byte[] replicaBefore = Files.readAllBytes(replica);

        OtherUser.give(fxDir.resolve("catalog"));   // the catalog is writable by every user of redirect
        String forged = OtherUser.java(ForgeDirtyAsOtherUser.class, fxDir.resolve("catalog").toString(), file.toString()).output();
        assertTrue(forged.contains("FORGED 1"), forged);
        assertTrue(forged.contains("MARK DENIED (withdraw DENIED)"), "pdlatest could change the in-step mark: " + forged);
        assertTrue(forged.contains("WRITE DENIED"), forged);
        assertArrayEquals(replicaBefore, Files.readAllBytes(replica), "pdlatest changed the replica");

        try (Fixture fx = new Fixture(fxDir)) {
            assertEquals(ReplicaState.DIRTY, entry(fx, p).state(), "the forged entry is DIRTY");
            fx.replication.daemon.runOnce();
            assertArrayEquals(newer, Files.readAllBytes(file), "the daemon copied the replica's older bytes over a file pdlatest cannot write");
            ReplicaEntry now = entry(fx, p);
            assertEquals(ReplicaState.VALID, now.state(), fx.progress.toString());
            assertArrayEquals(Fixture.patternBytes(p, newer), Files.readAllBytes(Path.of(now.replica())), "rebuilt from the owner's new bytes");
            // and `pdla sync` (the same write-back) does no better for the forger
            OtherUser.give(fxDir.resolve("catalog"));
        }
        String again = OtherUser.java(ForgeDirtyAsOtherUser.class, fxDir.resolve("catalog").toString(), file.toString()).output();
        assertTrue(again.contains("FORGED 1"), again);
        try (Fixture fx = new Fixture(fxDir)) {
            List<String> notes = new io.pdla.replicator.daemon.WriteBack(fx.catalog, io.pdla.storage.StorageDrivers.installed()).writeBack(file.toUri());
            assertTrue(String.join("\n", notes).contains("not copied"), notes.toString());
            assertArrayEquals(newer, Files.readAllBytes(file), "pdla sync copied a replica nobody wrote into over the original");
            assertEquals(ReplicaState.VALID, entry(fx, p).state(), "the original still holds the replica's bytes: in step again, " + notes);
        }
    }

    /**
     * The other way a DIRTY replica's bytes reach its original: a size change copies them back, then marks the
     * replica STALE. It is marked in step there too, so a forged DIRTY entry later (the owner having written the
     * original since) finds nothing to copy. One user is enough: the forgery is a catalog write.
     */
    @Test
    void aReplicaCopiedBackBeforeASizeChangeIsNotCopiedAgainWhenForgedDirty() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("setsize"));
        Path file = dir.resolve("data.bin");
        Fixture.writeRandomFile(file, SIZE, 12);
        KeyedPattern p = pattern(file);
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve("setsize-fx")))) {
            fx.replication.queue.offer(p);
            assertEquals(1, fx.replication.daemon.runOnce().published());
            byte[] a = new byte[REQ];
            Arrays.fill(a, (byte) 'A');
            RedirectInterceptor w = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db));
            try (ChainFile f = new ChainFile(file.toUri(), "app", 1, 0, Map.of(), List.of(w), false)) {
                f.write(0, a);   // into the replica, which becomes DIRTY
                assertEquals(ReplicaState.DIRTY, entry(fx, p).state());
                f.setSize((long) (COUNT - 1) * STRIDE);   // cuts into the pattern's last block: copies it back, then STALE
            }
            assertEquals(ReplicaState.STALE, entry(fx, p).state());
            assertArrayEquals(a, Arrays.copyOfRange(Files.readAllBytes(file), 0, REQ));
            byte[] b = new byte[REQ];
            Arrays.fill(b, (byte) 'B');
            Fixture.overwrite(file, 0, b);   // the owner writes the file again, outside pdla
            byte[] now = Files.readAllBytes(file);
            ReplicaEntry e = entry(fx, p);
            fx.catalog.transact(t -> {
                t.put(e.withState(ReplicaState.DIRTY).withIdentity(io.pdla.catalog.FileIdentity.probe(
                        io.pdla.storage.StorageDrivers.installed().forUri(file.toUri()), file.toUri())));
                return null;
            });
            fx.replication.daemon.runOnce();
            assertArrayEquals(now, Files.readAllBytes(file), "the daemon copied the replica's bytes back a second time, over the owner's: "
                    + fx.progress);
        }
    }

    /**
     * Issue 18: a catalog writer hides another user's acknowledged, not yet written-back writes by turning their
     * DIRTY replica VALID, then STALE, so that the scanner would delete it. The replica's content differs from its
     * in-step mark (only a writer of the replica can set it), so the daemon treats it as DIRTY and writes it back.
     */
    @Test
    void aCatalogWriterCannotMakeTheDaemonDeleteAReplicaHoldingAnotherUsersWrites() throws Exception {
        Path file = hideRootsWrites("stale");
        try (Fixture fx = new Fixture(tmp.resolve("hide-stale-fx"))) {
            KeyedPattern p = pattern(file);
            assertEquals(ReplicaState.STALE, entry(fx, p).state(), "pdlatest's forgery took");
            fx.replication.daemon.runOnce();
            assertArrayEquals(rootsBytes(), Arrays.copyOfRange(Files.readAllBytes(file), 0, REQ),
                    "root's acknowledged write was lost: " + fx.progress);
            fx.replication.daemon.runOnce();
            ReplicaEntry now = entry(fx, p);
            assertEquals(ReplicaState.VALID, now.state(), fx.progress.toString());
            assertArrayEquals(rootsBytes(), Arrays.copyOfRange(Files.readAllBytes(Path.of(now.replica())), 0, REQ), "the replica serves root's bytes");
        }
    }

    /** The same writes named in a forged journal row after their entry was dropped: the file is kept, not deleted. */
    @Test
    void aCatalogWriterCannotMakeTheDaemonDeleteAReplicaHoldingAnotherUsersWritesThroughTheJournal() throws Exception {
        Path file = hideRootsWrites("evict");
        Path replica;
        try (Fixture fx = new Fixture(tmp.resolve("hide-evict-fx"))) {
            assertTrue(fx.catalog.transact(t -> t.entry(pattern(file).key())).isEmpty(), "pdlatest's forgery took");
            replica = Files.list(file.getParent().resolve(".pdla-replicas")).flatMap(d -> {
                try {
                    return Files.list(d);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).filter(f -> !f.toString().endsWith(".tmp")).findFirst().orElseThrow();
            fx.replication.scanner.cleanLeftovers();
            assertTrue(Files.exists(replica), "the daemon deleted a replica holding root's acknowledged writes");
            assertArrayEquals(rootsBytes(), Arrays.copyOfRange(Files.readAllBytes(replica), 0, REQ));
        }
    }

    private static byte[] rootsBytes() {
        byte[] r = new byte[REQ];
        Arrays.fill(r, (byte) 'R');
        return r;
    }

    /** Root's file (pdlatest reads it, cannot write it) with a replica holding root's acknowledged write; then pdlatest's forgery. */
    private Path hideRootsWrites(String how) throws Exception {
        OtherUser.assumeAvailable();
        OtherUser.openUp(tmp);
        Path dir = Files.createDirectories(tmp.resolve("hide-" + how));
        OtherUser.openUp(dir);
        Path file = dir.resolve("results.dat");
        Fixture.writeRandomFile(file, SIZE, 13);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        KeyedPattern p = pattern(file);
        Path fxDir = Files.createDirectories(tmp.resolve("hide-" + how + "-fx"));
        try (Fixture fx = new Fixture(fxDir)) {
            fx.replication.queue.offer(p);
            assertEquals(1, fx.replication.daemon.runOnce().published(), fx.progress.toString());
            RedirectInterceptor w = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(fx.db));
            try (ChainFile f = new ChainFile(file.toUri(), "app", 1, 0, Map.of(), List.of(w), false)) {
                f.write(0, rootsBytes());   // acknowledged; held by the replica until a write-back
            }
            assertEquals(ReplicaState.DIRTY, entry(fx, p).state(), "root's write went into the replica");
            assertFalse(Arrays.equals(rootsBytes(), Arrays.copyOfRange(Files.readAllBytes(file), 0, REQ)), "not written back yet");
        }
        OtherUser.give(fxDir.resolve("catalog"));
        String hidden = OtherUser.java(HideDirtyAsOtherUser.class, fxDir.resolve("catalog").toString(), file.toString(), how).output();
        assertTrue(hidden.contains("HIDDEN 1"), hidden);
        return file;
    }
}
