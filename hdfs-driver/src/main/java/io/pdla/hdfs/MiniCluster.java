package io.pdla.hdfs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An in-process HDFS (Hadoop's MiniDFSCluster: one NameNode and DataNodes as threads of this JVM) with
 * some DataNodes whose single volume is labelled DISK and some labelled SSD, for tests and
 * {@code pdla demo --pfs hdfs}. All volumes are directories under one base directory on the same local
 * disk: the storage types steer block placement (which the tests check) but are not faster or slower.
 *
 * <p>Start-up takes 6-11 s in a fresh JVM: start one and share it. Reach it through the {@code hdfs:} driver
 * with {@link #uri(String)}; any Hadoop client can use {@link #uri()} too.
 *
 * <p>Run {@code java -cp ... io.pdla.hdfs.MiniCluster [--disk N] [--ssd N] [--replication R] [--dir D]} to
 * keep one up for manual use; it prints its URI and stops at end of input or Ctrl-C.
 */
public final class MiniCluster implements AutoCloseable {
    private final MiniDFSCluster cluster;
    private final Path baseDir;
    private final int diskNodes;
    private final int ssdNodes;

    private MiniCluster(MiniDFSCluster cluster, Path baseDir, int diskNodes, int ssdNodes) {
        this.cluster = cluster;
        this.baseDir = baseDir;
        this.diskNodes = diskNodes;
        this.ssdNodes = ssdNodes;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** {@code hdfs://localhost:PORT}, the NameNode. */
    public URI uri() {
        return cluster.getURI();
    }

    /** {@code hdfs://localhost:PORT/absolute/path} for the driver. */
    public URI uri(String absolutePath) {
        if (!absolutePath.startsWith("/")) throw new IllegalArgumentException("path must be absolute: " + absolutePath);
        return URI.create(uri().toString() + absolutePath);
    }

    /** A Hadoop client of the cluster's own (for checks that go around the driver). */
    public DistributedFileSystem fileSystem() throws IOException {
        return cluster.getFileSystem();
    }

    /**
     * The live DataNodes as the NameNode sees them: transfer address to storage types of its volumes
     * (for demo output, and to check that the cluster is what was asked for).
     */
    public Map<String, List<String>> dataNodeStorageTypes() throws IOException {
        Map<String, List<String>> out = new TreeMap<>();
        for (DatanodeStorageReport r : fileSystem().getClient().getDatanodeStorageReport(HdfsConstants.DatanodeReportType.LIVE)) {
            List<String> types = new ArrayList<>();
            for (StorageReport s : r.getStorageReports()) types.add(s.getStorage().getStorageType().name());
            out.put(r.getDatanodeInfo().getXferAddr(), types);
        }
        return out;
    }

    public int diskNodes() {
        return diskNodes;
    }

    public int ssdNodes() {
        return ssdNodes;
    }

    public Path baseDir() {
        return baseDir;
    }

    /** Stops all nodes and deletes the base directory with the cluster's data. */
    @Override
    public void close() {
        cluster.shutdown(true);
    }

    public static final class Builder {
        private int disk = 2;
        private int ssd = 2;
        private int replication = 2;
        private long blockSize = 0;
        private Path baseDir;
        private boolean quiet = true;

        /** DataNodes with one DISK volume each (default 2). */
        public Builder diskNodes(int n) {
            this.disk = n;
            return this;
        }

        /** DataNodes with one SSD volume each (default 2). */
        public Builder ssdNodes(int n) {
            this.ssd = n;
            return this;
        }

        /**
         * The NameNode's default replication (default 2). With 2 SSD nodes, ALL_SSD holds at most 2 replicas
         * on SSD; a third would fall back to DISK.
         */
        public Builder replication(int r) {
            this.replication = r;
            return this;
        }

        /** The NameNode's default block size ({@code dfs.blocksize}); 0 keeps Hadoop's 128 MiB. */
        public Builder defaultBlockSize(long bytes) {
            this.blockSize = bytes;
            return this;
        }

        /** Where the NameNode and DataNodes keep their data; default a new temporary directory. */
        public Builder baseDir(Path dir) {
            this.baseDir = dir;
            return this;
        }

        /** Hadoop logs about 600 INFO lines per start and stop; quiet (default) keeps only errors. */
        public Builder quietLogs(boolean quiet) {
            this.quiet = quiet;
            return this;
        }

        public MiniCluster start() throws IOException {
            if (disk < 0 || ssd < 0 || disk + ssd == 0) throw new IllegalArgumentException("need at least one DataNode, got disk=" + disk + " ssd=" + ssd);
            if (replication < 1) throw new IllegalArgumentException("replication must be >= 1, got " + replication);
            if (quiet) HadoopLogs.quiet();
            Path dir = baseDir != null ? baseDir : Files.createTempDirectory("pdla-minidfs-");
            Configuration conf = new HdfsConfiguration();
            conf.setClassLoader(MiniCluster.class.getClassLoader());
            conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, replication);
            if (blockSize > 0) conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, blockSize);
            // as HdfsNode's NameNode: the SSD DataNodes take every ALL_SSD write, so judging their load against the
            // average of all DataNodes would call them "too busy" and put SSD blocks on DISK; compare within a type
            conf.setBoolean("dfs.namenode.redundancy.considerLoadByStorageType", true);
            StorageType[][] types = new StorageType[disk + ssd][];
            for (int i = 0; i < disk + ssd; i++) types[i] = new StorageType[]{i < disk ? StorageType.DISK : StorageType.SSD};
            File base = dir.toFile();
            MiniDFSCluster c = new MiniDFSCluster.Builder(conf, base)
                    .numDataNodes(disk + ssd)
                    .storagesPerDatanode(1)
                    .storageTypes(types)
                    .build();
            try {
                c.waitActive();
            } catch (IOException | RuntimeException e) {
                c.shutdown(true);
                throw e;
            }
            return new MiniCluster(c, dir, disk, ssd);
        }
    }

    public static void main(String[] args) throws Exception {
        Builder b = builder();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (a) {
                case "--disk" -> b.diskNodes(Integer.parseInt(need(a, v)));
                case "--ssd" -> b.ssdNodes(Integer.parseInt(need(a, v)));
                case "--replication" -> b.replication(Integer.parseInt(need(a, v)));
                case "--dir" -> b.baseDir(Path.of(need(a, v)));
                case "--verbose" -> { b.quietLogs(false); continue; }
                default -> throw new IllegalArgumentException("unknown option " + a + "; options: --disk N --ssd N --replication R --dir D --verbose");
            }
            i++;
        }
        try (MiniCluster c = b.start()) {
            System.out.println("MiniDFSCluster up at " + c.uri() + " (" + c.diskNodes() + " DISK + " + c.ssdNodes()
                    + " SSD DataNodes, data in " + c.baseDir() + "); end input (Ctrl-D) to stop");
            while (System.in.read() >= 0) {
                // wait for end of input
            }
        }
    }

    private static String need(String option, String value) {
        if (value == null) throw new IllegalArgumentException(option + " needs a value");
        return value;
    }
}
