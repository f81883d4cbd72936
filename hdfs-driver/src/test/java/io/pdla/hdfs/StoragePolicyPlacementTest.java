package io.pdla.hdfs;

import io.pdla.access.ExtentList;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import io.pdla.storage.Layout;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Files written under ALL_SSD and HOT land on SSD and DISK DataNodes (checked with Hadoop's own block
 * locations), and read back byte for byte with strided positional reads that cross block boundaries.
 */
@ExtendWith(SharedMiniCluster.class)
class StoragePolicyPlacementTest {
    private static final int MIB = 1 << 20;
    private static final int FILE_BYTES = 8 * MIB + 12_345; // 9 blocks of 1 MiB, the last one partial
    private static HdfsDriver driver;

    @BeforeAll
    static void connect() {
        driver = new HdfsDriver();
    }

    @AfterAll
    static void disconnect() throws IOException {
        driver.close();
    }

    @Test
    void allSsdDirectoryPutsEveryReplicaOnSsd() throws Exception {
        URI dir = SharedMiniCluster.cluster().uri("/placement/ssd");
        byte[] data = writeUnderDirectoryPolicy(dir, "ALL_SSD", 21);
        URI file = URI.create(dir + "/data");
        assertEveryReplicaOn(file, StorageType.SSD);
        assertStridedReadsMatch(file, data);
    }

    @Test
    void hotDirectoryPutsEveryReplicaOnDisk() throws Exception {
        URI dir = SharedMiniCluster.cluster().uri("/placement/hot");
        byte[] data = writeUnderDirectoryPolicy(dir, "HOT", 22);
        URI file = URI.create(dir + "/data");
        assertEveryReplicaOn(file, StorageType.DISK);
        assertStridedReadsMatch(file, data);
    }

    @Test
    void policyHintOnAFileOverridesItsDirectory() throws Exception {
        URI dir = SharedMiniCluster.cluster().uri("/placement/hot-with-ssd-file");
        driver.mkdirs(dir);
        driver.setLayout(dir, Layout.parse("1dh,space=hdd"));
        URI file = URI.create(dir + "/ssd-file");
        byte[] data = pattern(3 * MIB, 23);
        OpenOptions create = OpenOptions.createReadWrite().withHints(Map.of(
                "hdfs_block_size", "1m", "hdfs_storage_policy", "ALL_SSD"));
        try (StorageFile f = driver.open(file, create)) {
            f.write(0, ByteBuffer.wrap(data));
        }
        assertEquals(Layout.ServerClass.SSD, driver.layout(file).space());
        assertEquals(Layout.ServerClass.HDD, driver.layout(dir).space());
        assertEveryReplicaOn(file, StorageType.SSD);
    }

    @Test
    void sequentialReadsInPiecesCrossBlocksWithHeapAndDirectBuffers() throws Exception {
        URI dir = SharedMiniCluster.cluster().uri("/placement/sequential");
        byte[] data = writeUnderDirectoryPolicy(dir, "ONE_SSD", 24);
        URI file = URI.create(dir + "/data");
        for (HdfsDriver.BlockPlacement p : driver.blockPlacement(file)) {
            assertEquals(List.of("DISK", "SSD"), p.storageTypes().stream().sorted().toList(), "ONE_SSD: one replica on SSD, the other on DISK, block at " + p.offset());
        }
        try (StorageFile f = driver.open(file, OpenOptions.readOnly())) {
            byte[] back = new byte[data.length];
            int piece = 100_003; // odd size: pieces end anywhere inside blocks
            int off = 0;
            for (int i = 0; off < data.length; i++) {
                ByteBuffer b = i % 2 == 0 ? ByteBuffer.allocate(piece) : ByteBuffer.allocateDirect(piece);
                int n = f.read(off, b);
                assertTrue(n > 0, "progress at " + off);
                b.flip().get(back, off, n);
                off += n;
                if (i == 7) {
                    // a jump back in the middle of a sequential run: positional path, then sequential again
                    ByteBuffer early = ByteBuffer.allocate(5000);
                    assertEquals(5000, f.read(MIB - 2500, early));
                    assertArrayEquals(java.util.Arrays.copyOfRange(data, MIB - 2500, MIB + 2500), early.array());
                }
            }
            assertEquals(data.length, off);
            assertArrayEquals(data, back, file + ": sequential read in pieces");
            assertEquals(0, f.read(data.length, ByteBuffer.allocate(10)), "nothing past the end");
        }
    }

    private static byte[] writeUnderDirectoryPolicy(URI dir, String policy, long seed) throws IOException {
        driver.mkdirs(dir);
        Layout.ServerClass cls = switch (policy) {
            case "ALL_SSD" -> Layout.ServerClass.SSD;
            case "ONE_SSD" -> Layout.ServerClass.BOTH;
            default -> Layout.ServerClass.HDD;
        };
        driver.setLayout(dir, Layout.oneDH(cls, Layout.DEFAULT_STRIPE));
        assertEquals(policy, SharedMiniCluster.cluster().fileSystem().getStoragePolicy(new org.apache.hadoop.fs.Path(dir.getPath())).getName(),
                "directory policy as set from the server class");
        assertEquals(cls, driver.layout(dir).space(), "server class as reported back");
        URI file = URI.create(dir + "/data");
        byte[] data = pattern(FILE_BYTES, seed);
        OpenOptions create = OpenOptions.createReadWrite().withHints(Map.of("hdfs_block_size", "1m"));
        try (StorageFile f = driver.open(file, create)) {
            // Appends of 256 KiB, as an application would issue them.
            for (int off = 0; off < data.length; off += 256 * 1024) {
                f.write(off, ByteBuffer.wrap(data, off, Math.min(256 * 1024, data.length - off)));
            }
        }
        assertEquals(MIB, driver.layout(file).stripeSize());
        assertEquals(driver.layout(dir).space(), driver.layout(file).space(), "file inherits the directory's policy");
        return data;
    }

    /** Goes around the driver: the cluster's own client and Hadoop's block locations. */
    private static void assertEveryReplicaOn(URI file, StorageType expected) throws IOException {
        Path path = new Path(file.getPath());
        FileStatus st = SharedMiniCluster.cluster().fileSystem().getFileStatus(path);
        BlockLocation[] blocks = SharedMiniCluster.cluster().fileSystem().getFileBlockLocations(st, 0, st.getLen());
        long expectedBlocks = (st.getLen() + st.getBlockSize() - 1) / st.getBlockSize();
        assertEquals(expectedBlocks, blocks.length, file + ": block count");
        assertTrue(blocks.length >= 3, "enough blocks to mean something: " + blocks.length);
        for (int i = 0; i < blocks.length; i++) {
            StorageType[] types = blocks[i].getStorageTypes();
            assertEquals(2, types.length, file + ": replicas of block " + i);
            for (StorageType t : types) assertEquals(expected, t, file + ": block " + i + " replica types " + List.of(types));
        }
        // The driver's own view of placement says the same.
        List<HdfsDriver.BlockPlacement> placement = driver.blockPlacement(file);
        assertEquals(blocks.length, placement.size());
        for (HdfsDriver.BlockPlacement p : placement) assertEquals(List.of(expected.name(), expected.name()), p.storageTypes());
    }

    /**
     * Strided preads: 300 KiB pieces every 700 KiB (so pieces straddle 1 MiB block boundaries), once in
     * file order, once in reverse order, and from four threads at once on one handle.
     */
    private static void assertStridedReadsMatch(URI file, byte[] data) throws Exception {
        int piece = 300 * 1024, stride = 700 * 1024;
        ExtentList.Builder forward = ExtentList.builder();
        ExtentList.Builder backward = ExtentList.builder();
        List<Long> offsets = new ArrayList<>();
        for (long off = 5; off + piece <= data.length; off += stride) offsets.add(off);
        for (long off : offsets) forward.add(off, piece);
        for (int i = offsets.size() - 1; i >= 0; i--) backward.add(offsets.get(i), piece);
        try (StorageFile f = driver.open(file, OpenOptions.readOnly())) {
            assertEquals(data.length, f.size());
            for (ExtentList extents : List.of(forward.build(), backward.build())) {
                ByteBuffer got = ByteBuffer.allocate((int) extents.totalBytes());
                assertEquals(extents.totalBytes(), f.readv(extents, got));
                assertArrayEquals(expected(data, extents), got.array(), file + ": strided read " + extents);
            }
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> jobs = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    final int rank = t;
                    jobs.add(pool.submit(() -> {
                        // rank-interleaved pieces, as 4 MPI ranks reading a strided pattern
                        for (int i = rank; i < offsets.size(); i += 4) {
                            ByteBuffer got = ByteBuffer.allocateDirect(piece);
                            assertEquals(piece, f.read(offsets.get(i), got));
                            byte[] bytes = new byte[piece];
                            got.flip().get(bytes);
                            byte[] want = new byte[piece];
                            System.arraycopy(data, Math.toIntExact(offsets.get(i)), want, 0, piece);
                            assertArrayEquals(want, bytes, file + ": piece at " + offsets.get(i));
                        }
                        return null;
                    }));
                }
                for (Future<?> j : jobs) j.get();
            } finally {
                pool.shutdown();
            }
        }
    }

    private static byte[] expected(byte[] data, ExtentList extents) {
        byte[] out = new byte[(int) extents.totalBytes()];
        int pos = 0;
        for (int i = 0; i < extents.size(); i++) {
            int len = (int) extents.length(i);
            System.arraycopy(data, (int) extents.offset(i), out, pos, len);
            pos += len;
        }
        return out;
    }

    static byte[] pattern(int length, long seed) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }
}
