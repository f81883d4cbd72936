package io.pdla.redirect;

import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.guard.InStepMark;
import io.pdla.hdfs.MiniCluster;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.Fixture;
import io.pdla.replicator.OtherUser;
import io.pdla.storage.FileOwnership;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Owners on the stores other than POSIX, through the storage SPI ({@code StorageDriver.ownership}): a replica on
 * sim-pfs (its namespace entry and data objects are real local files) or on HDFS (FileStatus owner, group and
 * permission; a MiniDFSCluster whose superuser is this process's user) gets its original's owner, group and
 * permissions without execute, its key directory the owner and no group or other write; a replica of another
 * owner, with wider permissions, or writable by another group is never served. sim-pfs uses the second user
 * {@code pdlatest} (root needed, skipped otherwise); HDFS names users freely.
 */
class ReplicaOwnersPerStoreTest {
    static final int SIZE = 96 << 10, REQ = 4096, STRIDE = 2 * REQ, COUNT = 10;

    @TempDir
    static Path shared;
    static MiniCluster hdfs;
    static String oldSimRoot;

    @BeforeAll
    static void start() throws IOException {
        oldSimRoot = System.getProperty("pdla.simpfs.root");
        System.setProperty("pdla.simpfs.root", Files.createDirectories(shared.resolve("simpfs-root")).toString());
        hdfs = MiniCluster.builder().diskNodes(1).ssdNodes(0).replication(1).baseDir(shared.resolve("hdfs")).start();
    }

    @AfterAll
    static void stop() {
        if (hdfs != null) hdfs.close();
        if (oldSimRoot == null) System.clearProperty("pdla.simpfs.root");
        else System.setProperty("pdla.simpfs.root", oldSimRoot);
    }

    @TempDir
    Path tmp;

    private static byte[] write(URI file, long seed) throws IOException {
        byte[] data = new byte[SIZE];
        new Random(seed).nextBytes(data);
        StorageDriver d = StorageDrivers.installed().forUri(file);
        if (d instanceof io.pdla.hdfs.HdfsDriver) {
            try (var out = hdfs.fileSystem().create(new org.apache.hadoop.fs.Path(file.getPath()), true)) {
                out.write(data);
            }
        } else {
            try (StorageFile f = d.open(file, OpenOptions.createReadWrite())) {
                f.write(0, ByteBuffer.wrap(data));
                f.sync();
            }
        }
        return data;
    }

    @Test
    void simPfsReplicasGetTheOriginalsOwnerAndForeignOnesAreRefused() throws Exception {
        OtherUser.assumeAvailable();
        String u = OtherUser.NAME;
        check(URI.create("simpfs:///owners/data.bin"), new FileOwnership(u, u, PosixFilePermissions.fromString("rw-rw----")), "root", "root");
    }

    @Test
    void hdfsReplicasGetTheOriginalsOwnerAndForeignOnesAreRefused() throws Exception {
        hdfs.fileSystem().mkdirs(new org.apache.hadoop.fs.Path("/owners"));
        hdfs.fileSystem().setPermission(new org.apache.hadoop.fs.Path("/owners"), new org.apache.hadoop.fs.permission.FsPermission((short) 0755));
        check(hdfs.uri("/owners/data.bin"), new FileOwnership("alice", "staff", PosixFilePermissions.fromString("rw-rw----")), "mallory", "others");
    }

    private void check(URI file, FileOwnership owner, String stranger, String strangerGroup) throws Exception {
        String name = file.getScheme();
        StorageDriver d = StorageDrivers.installed().forUri(file);
        byte[] original = write(file, 21);
        d.setOwnership(file, owner);
        assertEquals(owner, d.ownership(file).orElseThrow(), name + ": the store keeps what it was given");
        KeyedPattern p = KeyedPattern.of(new PatternKey(new AppIdentity("own", 1), 0, file), Geometry.strided(0, REQ, STRIDE, COUNT));
        try (Fixture fx = new Fixture(Files.createDirectories(tmp.resolve("fx")))) {
            fx.replication.queue.offer(p);
            assertEquals(1, fx.replication.daemon.runOnce().published(), fx.progress.toString());
            ReplicaEntry e = fx.catalog.transact(t -> t.entry(p.key())).orElseThrow();
            URI replica = e.replica();
            assertEquals(owner, d.ownership(replica).orElseThrow(), name + ": the replica has the original's owner, group and permissions");
            FileOwnership keyDir = d.ownership(replica.resolve(".")).orElseThrow();
            assertEquals(owner.owner(), keyDir.owner(), name + ": key directory owner");
            assertEquals("rwxr-x---", keyDir.bits(), name + ": key directory: group may list where it may read the original, others not");
            assertTrue(InStepMark.present(d, replica), name + ": the replica carries its in-step mark");
            if (d instanceof io.pdla.simpfs.SimPfsDriver) {
                // the bytes live in data objects: they are the owner's too, none readable by others
                try (var s = Files.walk(Path.of(System.getProperty("pdla.simpfs.root"), "data"))) {
                    for (Path obj : s.filter(Files::isRegularFile).toList()) {
                        assertEquals(owner.owner(), Files.getOwner(obj).getName(), obj.toString());
                        assertFalse(PosixFilePermissions.toString(Files.getPosixFilePermissions(obj)).substring(6).contains("r"), obj + " readable by others");
                    }
                }
            }
            RedirectConfig cfg = RedirectConfig.from(Map.of()).withCatalog(fx.db);
            RedirectStats genuine = served(file, cfg, original, name + " genuine");
            assertTrue(genuine.readsFromReplica.get() > 0 && genuine.replicasRefused.get() == 0, name + ": the genuine replica serves: " + genuine);

            // what another user (or a careless chmod/chgrp) could make of it: never served
            List<FileOwnership> bad = List.of(
                    new FileOwnership(stranger, owner.group(), owner.permissions()),
                    new FileOwnership(owner.owner(), owner.group(), PosixFilePermissions.fromString("rw-rw-rw-")),
                    new FileOwnership(owner.owner(), strangerGroup, PosixFilePermissions.fromString("rw-rw----")));
            for (FileOwnership b : bad) {
                d.setOwnership(replica, b);
                RedirectStats st = served(file, cfg, original, name + " " + b);
                assertEquals(0, st.readsFromReplica.get(), name + ": a replica " + b + " served for an original " + owner + ": " + st);
                assertEquals(1, st.replicasRefused.get(), name + ": refused by the owner rules, not for another reason: " + st);
            }
        }
    }

    /** Reads every request through redirect and checks the original's bytes; the counters say where they came from. */
    private static RedirectStats served(URI file, RedirectConfig cfg, byte[] original, String what) throws IOException {
        RedirectInterceptor r = new RedirectInterceptor(cfg);
        try (ChainFile f = new ChainFile(file, "own", 1, 0, Map.of(), List.of(r), true)) {
            for (int i = 0; i < COUNT; i++) {
                long off = (long) i * STRIDE;
                assertArrayEquals(Arrays.copyOfRange(original, (int) off, (int) off + REQ), f.read(off, REQ), what + ": request " + i);
            }
        }
        return r.stats();
    }

    /**
     * The refusal rule on sim-pfs: a daemon running as {@code pdlatest} cannot give a replica of root's file to
     * root (the store refuses the hand-over), so it rejects the pattern, publishes nothing and says why; its own
     * file it replicates, owned by itself.
     */
    @Test
    void aSimPfsDaemonThatCannotGiveAReplicaItsOwnerRefusesToBuildIt() throws Exception {
        OtherUser.assumeAvailable();
        OtherUser.openUp(tmp);
        Path simRoot = Files.createDirectories(tmp.resolve("sim"));
        System.setProperty("pdla.simpfs.root", simRoot.toString());
        try {
            URI rootFile = URI.create("simpfs:///data/root.bin");
            URI own = URI.create("simpfs:///data/own.bin");
            write(rootFile, 31);
            write(own, 32);
            StorageDriver d = StorageDrivers.installed().forUri(rootFile);
            d.setOwnership(rootFile, new FileOwnership("root", "root", PosixFilePermissions.fromString("rw-r--r--")));
            d.setOwnership(own, new FileOwnership(OtherUser.NAME, OtherUser.NAME, PosixFilePermissions.fromString("rw-r-----")));
            // a store both users use: its own folders open to both (the files keep their owners and bits)
            try (var s = Files.walk(simRoot)) {
                for (Path p : s.toList()) {
                    if (Files.isDirectory(p) || !p.startsWith(simRoot.resolve("ns")) && !p.startsWith(simRoot.resolve("data"))) {
                        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxrwxrwx" : "rw-rw-rw-"));
                    }
                }
            }
            Path db = tmp.resolve("catalog");
            try (io.pdla.catalog.Catalog c = io.pdla.catalog.Catalog.open(db)) {
                var q = new io.pdla.replicator.queue.CatalogPatternQueue(c);
                for (URI f : List.of(rootFile, own)) {
                    q.offer(KeyedPattern.of(new PatternKey(new AppIdentity("own", 1), 0, f), Geometry.strided(0, REQ, STRIDE, COUNT)));
                }
            }
            OtherUser.give(db);
            OtherUser.Result r = OtherUser.java(Map.of("PDLA_SIMPFS_ROOT", simRoot.toString()), io.pdla.replicator.daemon.DaemonMain.class,
                    "--db", db.toString(), "--once");
            assertEquals(0, r.exit(), r.output());
            assertTrue(r.output().contains("its original's owner root"), r.output());
            assertTrue(r.output().contains("1 published") && r.output().contains("1 rejected"), r.output());
            try (io.pdla.catalog.Catalog c = io.pdla.catalog.Catalog.open(db)) {
                assertTrue(c.transact(t -> t.entriesOf(rootFile, x -> { })).isEmpty(), "nothing published for root's file");
                URI replica = c.transact(t -> t.entriesOf(own, x -> { })).get(0).replica();
                assertEquals(OtherUser.NAME, d.ownership(replica).orElseThrow().owner());
                assertEquals("rw-r-----", d.ownership(replica).orElseThrow().bits());
                assertTrue(new io.pdla.replicator.queue.CatalogPatternQueue(c).pending().isEmpty(), "the refused pattern left the queue");
            }
            // no replica file of root's pattern anywhere in the store's namespace
            try (var s = Files.walk(simRoot.resolve("ns"))) {
                assertEquals(1, s.filter(p -> p.getFileName().toString().startsWith("replica-")).count(), "only pdlatest's own replica exists");
            }
        } finally {
            System.setProperty("pdla.simpfs.root", shared.resolve("simpfs-root").toString());
        }
    }
}
