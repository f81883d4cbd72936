package io.pdla.hdfs;

import io.pdla.storage.Layout;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.BlockStoragePolicySpi;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;

import java.io.IOException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The core layout description in HDFS's terms. HDFS cuts a file into blocks and places them itself, so
 * what a layout can say to it is the stripe (the block size) and the server class (the storage policy):
 * HDD servers: {@code HOT}; SSD servers: {@code ALL_SSD}; both, or a hybrid layout: {@code ONE_SSD}. Read
 * back, {@code ALL_SSD} is SSD, {@code ONE_SSD} both, any other policy (HOT, WARM, COLD...) HDD. A file's
 * layout is 1-DH with its block size over the cluster's live DataNodes, counted as one class (SServers
 * under ALL_SSD, HServers otherwise).
 */
final class HdfsLayouts {
    private HdfsLayouts() {
    }

    static String policyFor(Layout layout) {
        if (layout.distribution() == Layout.Distribution.HYBRID) return "ONE_SSD";
        return switch (layout.space()) {
            case SSD -> "ALL_SSD";
            case BOTH -> "ONE_SSD";
            case HDD -> "HOT";
        };
    }

    static Layout.ServerClass classOf(String policy) {
        if (policy == null) return Layout.ServerClass.HDD;
        return switch (policy.toUpperCase(Locale.ROOT)) {
            case "ALL_SSD" -> Layout.ServerClass.SSD;
            case "ONE_SSD" -> Layout.ServerClass.BOTH;
            default -> Layout.ServerClass.HDD;
        };
    }

    /** The block size the layout asks for: its per-server strip (for hybrid the larger strip). */
    static long blockSizeFor(Layout layout) {
        return layout.stripe();
    }

    static Layout describe(FileSystem fs, Path path, FileStatus st, long blockSize) throws IOException {
        BlockStoragePolicySpi policy = fs.getStoragePolicy(path);
        Layout.ServerClass cls = classOf(policy == null ? null : policy.getName());
        int nodes = dataNodes(fs, st);
        return Layout.oneDH(cls, blockSize).withServers(cls == Layout.ServerClass.SSD ? 0 : nodes, cls == Layout.ServerClass.SSD ? nodes : 0);
    }

    /**
     * Live DataNodes (a DataNode report needs superuser rights on a secured cluster; without them, the
     * distinct hosts holding the file's blocks, at least 1).
     */
    private static int dataNodes(FileSystem fs, FileStatus st) {
        if (fs instanceof DistributedFileSystem dfs) {
            try {
                int live = dfs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE).length;
                if (live > 0) return live;
            } catch (IOException notAllowed) {
                // fall through to the hosts of the blocks
            }
        }
        if (st.isDirectory()) return 1;
        Set<String> hosts = new HashSet<>();
        try {
            for (BlockLocation b : fs.getFileBlockLocations(st, 0, st.getLen())) hosts.addAll(java.util.List.of(b.getHosts()));
        } catch (IOException e) {
            return 1;
        }
        return Math.max(1, hosts.size());
    }
}
