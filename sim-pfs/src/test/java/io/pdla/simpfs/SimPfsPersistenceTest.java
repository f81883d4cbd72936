package io.pdla.simpfs;

import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageFile;
import io.pdla.storage.Layout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimPfsPersistenceTest {
    @TempDir
    Path root;

    private static byte[] data(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) b[i] = (byte) (i * 31 + 7);
        return b;
    }

    @Test
    void filesInheritTheirDirectoryLayoutAndEverythingSurvivesARestart() throws Exception {
        io.pdla.simpfs.store.SimPfs.open(root, SimPfsConfig.builder().hservers(4).sservers(2).build());
        SimPfsDriver first = new SimPfsDriver(root);
        URI dir = URI.create("simpfs:///replicas");
        first.mkdirs(dir);
        first.setLayout(dir, Layout.parse("2d:2,stripe=4096,region=65536,space=hdd"));
        URI file = URI.create("simpfs:///replicas/sub/p1");
        first.mkdirs(URI.create("simpfs:///replicas/sub"));
        byte[] bytes = data(300_000);
        try (StorageFile f = first.open(file, OpenOptions.createReadWrite())) {
            f.write(0, ByteBuffer.wrap(bytes));
        }
        // Each of the four HServers holds part of the file; the SServers hold none.
        assertTrue(Files.exists(root.resolve("data/h0")) && Files.exists(root.resolve("data/h3")));
        assertTrue(!Files.exists(root.resolve("data/s0")));

        SimPfsDriver restarted = new SimPfsDriver(root);
        Layout l = restarted.layout(file);
        assertEquals(Layout.Distribution.TWO_D, l.distribution());
        assertEquals(2, l.groupSize());
        assertEquals(4, l.serverCount());
        try (StorageFile f = restarted.open(file, OpenOptions.readOnly())) {
            assertEquals(l, f.layout(), "the open file reports the layout the driver does");
        }
        try (StorageFile f = restarted.open(file, OpenOptions.readOnly())) {
            assertEquals(bytes.length, f.size());
            ByteBuffer back = ByteBuffer.allocate(bytes.length);
            assertEquals(bytes.length, f.read(0, back));
            assertArrayEquals(bytes, back.array());
        }
        assertEquals(4, restarted.fileSystem(Map.of()).config().hservers(), "the root keeps the configuration it was formatted with");
    }

    @Test
    void aLayoutHintAppliesToANewFileAndALayoutCannotChangeUnderData() throws Exception {
        SimPfsDriver d = new SimPfsDriver(root);
        URI uri = URI.create("simpfs:///ssd-file");
        try (StorageFile f = d.open(uri, OpenOptions.createReadWrite().withHints(Map.of(SimPfsDriver.HINT_LAYOUT, "1dh,stripe=8k,space=ssd")))) {
            f.write(0, ByteBuffer.wrap(data(100_000)));
        }
        assertEquals(Layout.ServerClass.SSD, d.layout(uri).space());
        assertEquals(8 * 1024, d.layout(uri).stripeSize());
        StorageException e = assertThrows(StorageException.class, () -> d.setLayout(uri, Layout.oneDV(Layout.ServerClass.HDD, 0)));
        assertEquals(StorageException.Reason.BAD_ARGUMENT, e.reason());
        assertTrue(e.getMessage().contains("already holds data"), e.getMessage());

        StorageException bad = assertThrows(StorageException.class, () -> d.open(URI.create("simpfs:///x"),
                OpenOptions.createReadWrite().withHints(Map.of(SimPfsDriver.HINT_LAYOUT, "2d:5"))));
        assertTrue(bad.getMessage().contains("group size 5"), bad.getMessage());
        assertTrue(!d.exists(URI.create("simpfs:///x")), "a rejected layout creates nothing");
    }

    @Test
    void driversOfSeveralRanksShareOneRootSafely() throws Exception {
        // One driver instance per rank, as under MPJ's multicore device (one class loader per rank).
        int ranks = 6;
        Thread[] threads = new Thread[ranks];
        Throwable[] failure = new Throwable[1];
        for (int r = 0; r < ranks; r++) {
            int rank = r;
            threads[r] = new Thread(() -> {
                try {
                    SimPfsDriver d = new SimPfsDriver(root);
                    for (int i = 0; i < 10; i++) {
                        URI uri = URI.create("simpfs:///shared/f" + i);
                        try (StorageFile f = d.open(uri, OpenOptions.createReadWrite())) {
                            f.write((long) rank * 1000, ByteBuffer.wrap(data(1000)));
                        }
                    }
                } catch (Throwable t) {
                    failure[0] = t;
                }
            });
            threads[r].start();
        }
        for (Thread t : threads) t.join();
        if (failure[0] != null) throw new AssertionError(failure[0]);
        SimPfsDriver d = new SimPfsDriver(root);
        for (int i = 0; i < 10; i++) {
            try (StorageFile f = d.open(URI.create("simpfs:///shared/f" + i), OpenOptions.readOnly())) {
                assertEquals(ranks * 1000L, f.size(), "file f" + i + " was created once and written by every rank");
            }
        }
    }

    @Test
    void aBadConfigFileForANewRootIsABadArgumentNamingTheKey() throws Exception {
        Path cfg = root.resolve("bad.properties");
        Files.writeString(cfg, "hservers=many\n");
        SimPfsDriver d = new SimPfsDriver();
        StorageException e = assertThrows(StorageException.class, () -> d.open(URI.create("simpfs:///f"), OpenOptions.createReadWrite()
                .withHints(Map.of(SimPfsDriver.HINT_ROOT, root.resolve("fresh").toString(), SimPfsDriver.HINT_CONFIG, cfg.toString()))));
        assertEquals(StorageException.Reason.BAD_ARGUMENT, e.reason());
        assertTrue(e.getMessage().contains("hservers") && e.getMessage().contains("bad.properties"), e.getMessage());
    }

    @Test
    void uriWithAHostIsRejectedWithAHint() {
        SimPfsDriver d = new SimPfsDriver(root);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> d.exists(URI.create("simpfs://server/x")));
        assertTrue(e.getMessage().contains("simpfs:///path"), e.getMessage());
    }
}
