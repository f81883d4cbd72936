package io.pdla.hdfs;

import org.apache.hadoop.conf.Configuration;
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

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * One HDFS daemon per process, from the Hadoop jars pdla already depends on (hadoop-hdfs), for an HDFS cluster
 * whose NameNode and DataNodes run on different hosts, as a site's does (MiniCluster keeps them all in one JVM).
 * The test hosts of {@code pdla hosts} run one each; see docs/cluster.md.
 * <pre>
 *   HdfsNode namenode --dir D --address HOST:PORT [--replication R]     formats D once, serves until killed
 *   HdfsNode datanode --dir D --namenode hdfs://HOST:PORT --storage DISK|SSD
 *   HdfsNode wait     --namenode URI --datanodes N [--seconds S]          until N DataNodes are live (exit 1 if not)
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
        if (args.length == 0) throw new IllegalArgumentException("HdfsNode namenode|datanode|wait|put|blocks ...");
        HadoopLogs.quiet();
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "namenode" -> nameNode(rest);
            case "datanode" -> dataNode(rest);
            case "wait" -> System.exit(waitForDataNodes(rest));
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
        // format registers the namesystem's metrics sources and the NameNode registers them again: allow that
        org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.setMiniClusterMode(true);
        if (!Files.isDirectory(dir.resolve("name/current"))) NameNode.format(conf);
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

    private static int waitForDataNodes(String[] a) throws Exception {
        int want = Integer.parseInt(opt(a, "--datanodes", null));
        long deadline = System.nanoTime() + Long.parseLong(opt(a, "--seconds", "60")) * 1_000_000_000L;
        try (DistributedFileSystem fs = client(a)) {
            while (true) {
                try {
                    DatanodeInfo[] live = fs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE);
                    if (live.length >= want && !fs.isInSafeMode()) {
                        for (DatanodeInfo d : live) System.out.println("LIVE " + d.getHostName() + " " + d.getXferAddr());
                        return 0;
                    }
                } catch (IOException notYet) {
                    // NameNode not up yet
                }
                if (System.nanoTime() > deadline) {
                    System.out.println("fewer than " + want + " DataNodes live");
                    return 1;
                }
                Thread.sleep(200);
            }
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
