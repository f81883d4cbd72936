package io.pdla.hdfs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One HDFS daemon per process, from the Hadoop jars pdla already depends on (hadoop-hdfs), for an HDFS cluster
 * whose NameNode and DataNodes run on different hosts, as a site's does (MiniCluster keeps them all in one JVM).
 * The test hosts of {@code pdla hosts} run one each; see docs/cluster.md.
 * <pre>
 *   HdfsNode namenode --dir D --address HOST:PORT [--replication R]     formats D once, serves until killed
 *   HdfsNode datanode --dir D --namenode hdfs://HOST:PORT --storage DISK|SSD
 *   HdfsNode wait     --namenode URI --datanodes N [--ssd M] [--seconds S] until N DataNodes are live and, with
 *                                                                        --ssd, M live SSD storages have remaining
 *                                                                        capacity > 0 (exit 1 if not, saying what was found)
 *   HdfsNode storage  --namenode URI                                     the live DataNodes' storages: type, remaining, load
 *   HdfsNode put      --namenode URI LOCAL PATH                           copies a local file in
 *   HdfsNode blocks   --namenode URI PATH                                 each file under PATH: its storage policy,
 *                                                                        and per block the hosts and storage types
 * </pre>
 * Settings are the few a cluster of test hosts needs: no permission checks (the test user is the superuser's
 * peer), no reverse-DNS check of DataNodes (test hosts have /etc/hosts only), ephemeral HTTP ports, and no
 * minimum block size (a replica's block is its layout's stripe, which may be below HDFS's 1 MiB default).
 */
public final class HdfsNode {
    private HdfsNode() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) throw new IllegalArgumentException("HdfsNode namenode|datanode|wait|storage|put|blocks ...");
        HadoopLogs.quiet();
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "namenode" -> nameNode(rest);
            case "datanode" -> dataNode(rest);
            case "wait" -> System.exit(waitForDataNodes(rest, System.out));
            case "storage" -> storage(rest, System.out);
            case "put" -> put(rest);
            case "blocks" -> blocks(rest);
            default -> throw new IllegalArgumentException("unknown HdfsNode command " + args[0]);
        }
    }

    private static String opt(String[] a, String name, String fallback) {
        for (int i = 0; i + 1 < a.length; i++) if (a[i].equals(name)) return a[i + 1];
        if (fallback == null) throw new IllegalArgumentException("missing " + name);
        return fallback;
    }

    /** The positional arguments: those that are neither an option nor an option's value. */
    private static String[] positional(String[] a) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < a.length; i++) {
            if (a[i].startsWith("--")) i++;
            else out.add(a[i]);
        }
        return out.toArray(String[]::new);
    }

    static Configuration common() {
        Configuration conf = new HdfsConfiguration();
        conf.setBoolean("dfs.permissions.enabled", false);
        conf.setBoolean("dfs.namenode.datanode.registration.ip-hostname-check", false);
        conf.setLong("dfs.namenode.fs-limits.min-block-size", 0);
        conf.set("dfs.namenode.http-address", "0.0.0.0:0");
        conf.set("dfs.datanode.http.address", "0.0.0.0:0");
        conf.set("dfs.datanode.ipc.address", "0.0.0.0:0");
        return conf;
    }

    private static void nameNode(String[] a) throws Exception {
        Path dir = Path.of(opt(a, "--dir", null)).toAbsolutePath();
        String address = opt(a, "--address", null);
        Configuration conf = common();
        conf.set("fs.defaultFS", "hdfs://" + address);
        conf.set("dfs.namenode.rpc-address", address);
        conf.set("dfs.namenode.rpc-bind-host", "0.0.0.0");
        conf.set("dfs.namenode.name.dir", dir.resolve("name").toUri().toString());
        conf.setInt("dfs.replication", Integer.parseInt(opt(a, "--replication", "1")));
        conf.setInt("dfs.namenode.safemode.min.datanodes", 0);
        conf.setInt("dfs.namenode.safemode.extension", 0);
        // The NameNode skips a DataNode as "too busy" when its xceiver count (active block transfers, as of its
        // last heartbeat) is above twice the average of all in-service DataNodes (dfs.namenode.redundancy.
        // considerLoad, on by default; BlockPlacementPolicyDefault.excludeNodeByLoad), and an ALL_SSD/ONE_SSD block
        // then falls back to DISK. The one SSD DataNode takes every replica write: one transfer in flight at its
        // heartbeat while the two DISK ones idle is 1 > 2 x 1/3. Compare each DataNode with those of its own
        // storage type instead, as hdfs-default.xml offers for DataNodes of one storage type each (as here).
        conf.setBoolean("dfs.namenode.redundancy.considerLoadByStorageType", true);
        // format registers the namesystem's metrics sources and the NameNode registers them again: allow that
        org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.setMiniClusterMode(true);
        if (!Files.isDirectory(dir.resolve("name/current"))) NameNode.format(conf);
        HadoopLogs.placement();
        NameNode nn = NameNode.createNameNode(new String[0], conf);
        System.out.println("NAMENODE UP hdfs://" + address);
        System.out.flush();
        nn.join();
    }

    private static void dataNode(String[] a) throws Exception {
        Path dir = Path.of(opt(a, "--dir", null)).toAbsolutePath();
        String storage = opt(a, "--storage", "DISK").toUpperCase(Locale.ROOT);
        if (!storage.equals("DISK") && !storage.equals("SSD")) throw new IllegalArgumentException("--storage DISK or SSD, was " + storage);
        Configuration conf = common();
        conf.set("fs.defaultFS", opt(a, "--namenode", null));
        conf.set("dfs.datanode.data.dir", "[" + storage + "]" + dir.resolve("data").toUri());
        // the host's own name, so block locations say which test host holds a block
        conf.set("dfs.datanode.hostname", java.net.InetAddress.getLocalHost().getHostName());
        DataNode dn = DataNode.createDataNode(new String[0], conf);
        if (dn == null) throw new IOException("DataNode did not start");
        System.out.println("DATANODE UP " + storage + " " + dn.getDisplayName());
        System.out.flush();
        while (dn.isDatanodeUp()) Thread.sleep(1000);
    }

    private static DistributedFileSystem client(String[] a) throws IOException {
        Configuration conf = common();
        return (DistributedFileSystem) FileSystem.newInstance(URI.create(opt(a, "--namenode", null)), conf);
    }

    /** What {@code wait} waits for: live DataNodes, live SSD storages with space, and for how long. */
    record WaitFor(int dataNodes, int ssd, long seconds) {
    }

    /** Parses {@code wait}'s options; a missing {@code --datanodes} or a count that is not a number >= 0 is refused. */
    static WaitFor parseWait(String[] a) {
        return new WaitFor(count(a, "--datanodes", null), count(a, "--ssd", "0"), count(a, "--seconds", "60"));
    }

    private static int count(String[] a, String name, String fallback) {
        String v = opt(a, name, fallback);
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " wants a whole number >= 0, was " + v);
        }
        if (n < 0) throw new IllegalArgumentException(name + " wants a whole number >= 0, was " + v);
        return n;
    }

    /**
     * What the NameNode reports at one moment: its live DataNodes, each with its storages (type, state,
     * remaining bytes), and the number of live SSD storages a block can go to (normal, not failed, remaining > 0).
     */
    record Storages(int live, int ssdWithSpace, boolean safeMode, List<String> lines) {
        String describe() {
            return live + " live DataNode(s), " + ssdWithSpace + " SSD storage(s) with remaining capacity > 0"
                    + (safeMode ? ", NameNode in safe mode" : "") + (lines.isEmpty() ? "" : ": " + String.join("; ", lines));
        }
    }

    static Storages storages(DistributedFileSystem fs) throws IOException {
        DatanodeStorageReport[] reports = fs.getClient().getDatanodeStorageReport(HdfsConstants.DatanodeReportType.LIVE);
        int ssd = 0;
        List<String> lines = new ArrayList<>();
        for (DatanodeStorageReport r : reports) {
            DatanodeInfo d = r.getDatanodeInfo();
            List<String> each = new ArrayList<>();
            for (StorageReport s : r.getStorageReports()) {
                DatanodeStorage st = s.getStorage();
                boolean usable = !s.isFailed() && st.getState() == DatanodeStorage.State.NORMAL && s.getRemaining() > 0;
                if (usable && st.getStorageType() == StorageType.SSD) ssd++;
                each.add(st.getStorageType() + " remaining=" + s.getRemaining() + (s.isFailed() ? " FAILED" : "")
                        + (st.getState() == DatanodeStorage.State.NORMAL ? "" : " " + st.getState()));
            }
            lines.add(d.getHostName() + " " + d.getXferAddr() + " xceivers=" + d.getXceiverCount() + " [" + String.join(", ", each) + "]");
        }
        return new Storages(reports.length, ssd, fs.isInSafeMode(), lines);
    }

    static int waitForDataNodes(String[] a, PrintStream out) throws Exception {
        WaitFor want = parseWait(a);
        String wanted = want.dataNodes() + " live DataNode(s)" + (want.ssd() > 0 ? " and " + want.ssd() + " live SSD storage(s) with remaining capacity > 0" : "");
        long deadline = System.nanoTime() + want.seconds() * 1_000_000_000L;
        try (DistributedFileSystem fs = client(a)) {
            String last = "the NameNode did not answer";
            String said = null;
            while (true) {
                try {
                    DatanodeInfo[] live = fs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE);
                    Storages now = storages(fs);
                    last = now.describe();
                    if (live.length >= want.dataNodes() && now.ssdWithSpace() >= want.ssd() && !now.safeMode()) {
                        for (DatanodeInfo d : live) out.println("LIVE " + d.getHostName() + " " + d.getXferAddr());
                        for (String l : now.lines()) out.println("STORAGE " + l);
                        out.println("READY " + wanted + ": found " + last);
                        return 0;
                    }
                } catch (IOException notYet) {
                    last = "the NameNode did not answer: " + notYet.getMessage();
                }
                if (!last.equals(said)) {
                    out.println("WAITING for " + wanted + ": found " + last);
                    said = last;
                }
                if (System.nanoTime() > deadline) {
                    out.println("TIMEOUT after " + want.seconds() + " s waiting for " + wanted + ": found " + last);
                    return 1;
                }
                Thread.sleep(200);
            }
        }
    }

    static void storage(String[] a, PrintStream out) throws Exception {
        try (DistributedFileSystem fs = client(a)) {
            Storages now = storages(fs);
            for (String l : now.lines()) out.println("STORAGE " + l);
            out.println("FOUND " + now.describe());
        }
    }

    private static void put(String[] a) throws Exception {
        String[] p = positional(a);
        try (DistributedFileSystem fs = client(a)) {
            fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(p[0]), new org.apache.hadoop.fs.Path(p[1]));
        }
    }

    private static void blocks(String[] a) throws Exception {
        String[] p = positional(a);
        try (DistributedFileSystem fs = client(a)) {
            RemoteIterator<LocatedFileStatus> it = fs.listFiles(new org.apache.hadoop.fs.Path(p[0]), true);
            while (it.hasNext()) {
                LocatedFileStatus st = it.next();
                var policy = fs.getStoragePolicy(st.getPath());
                System.out.println("FILE " + st.getPath().toUri().getPath() + " policy=" + (policy == null ? "-" : policy.getName()) + " length=" + st.getLen());
                for (BlockLocation b : st.getBlockLocations()) {
                    System.out.println("BLOCK " + st.getPath().toUri().getPath() + " offset=" + b.getOffset() + " hosts=" + String.join(",", b.getHosts())
                            + " types=" + Arrays.toString(b.getStorageTypes()).replace(" ", ""));
                }
            }
        }
    }
}
