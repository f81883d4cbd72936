package io.pdla.cli;

import io.pdla.cli.programs.StampedIo;
import io.pdla.hdfs.HdfsNode;
import io.pdla.hosts.HostsExtension;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.pdla.cli.ClusterJobs.assertTwoRanksPerHost;
import static io.pdla.cli.ClusterJobs.assertVerified;
import static io.pdla.cli.ClusterJobs.machines;
import static io.pdla.cli.ClusterJobs.pdla;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HDFS as a cluster: a NameNode on host 4 and three DataNodes (DISK on hosts 1 and 2, SSD on host 3), each its own
 * JVM (HdfsNode) on its own namespace host; the PDLA loop with an hdfs:// file: run 1 traced on hosts 1-3, analyze,
 * the replicator daemon on host 4 with one SSD server (S-PDLA), run 2 served from the replicas. Block locations
 * show where HDFS put them: the replicas (policy ALL_SSD) on host 3's SSD volume, the original on DISK.
 */
@Tag("heavy")
class HdfsClusterTest {
    @RegisterExtension
    static final HostsExtension HOSTS = new HostsExtension(4);

    private static final int BLOCK = 16384, SEGMENTS = 16, NP = 6;
    private static final Pattern REDIRECT = Pattern.compile("REDIRECT rank (\\d+) fromReplica=(\\d+) mixed=(\\d+) fromOriginal=(\\d+)");
    private static final Pattern BLOCKS = Pattern.compile("BLOCK (\\S+) offset=\\d+ hosts=(\\S+) types=\\[(\\S+)]");

    @TempDir
    Path dir;

    private static List<String> java(String main, String... args) {
        List<String> c = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"), main));
        c.addAll(List.of(args));
        return c;
    }

    private HostsExtension.Result on(int host, String log, List<String> cmd) throws Exception {
        return HOSTS.run(HOSTS.host(host), cmd, dir.resolve(log), 150);
    }

    @Test
    void pdlaLoopOnAnHdfsClusterOfFourHostsPutsSPdlaReplicasOnTheSsdDataNode() throws Exception {
        String nn = "hdfs://" + HOSTS.host(4).name() + ":8020";
        List<Process> nodes = new ArrayList<>();
        try {
            nodes.add(HOSTS.start(HOSTS.host(4), java(HdfsNode.class.getName(), "namenode", "--dir", dir.resolve("nn").toString(),
                    "--address", HOSTS.host(4).name() + ":8020"), dir.resolve("nn.log")));
            for (int i = 1; i <= 3; i++) {
                nodes.add(HOSTS.start(HOSTS.host(i), java(HdfsNode.class.getName(), "datanode", "--dir", dir.resolve("dn" + i).toString(),
                        "--namenode", nn, "--storage", i == 3 ? "SSD" : "DISK"), dir.resolve("dn" + i + ".log")));
            }
            HostsExtension.Result live = on(1, "wait.log", java(HdfsNode.class.getName(), "wait", "--namenode", nn, "--datanodes", "3", "--ssd", "1", "--seconds", "90"));
            assertEquals(0, live.status(), () -> live.output() + clusterState(nn));
            for (int i = 1; i <= 3; i++) assertTrue(live.output().contains("LIVE " + HOSTS.host(i).name() + " "), live.output());

            byte[] base = new byte[NP * BLOCK * SEGMENTS];
            for (int i = 0; i < base.length; i++) base[i] = StampedIo.base(i);
            Files.write(dir.resolve("base.dat"), base);
            assertEquals(0, on(1, "put.log", java(HdfsNode.class.getName(), "put", "--namenode", nn, dir.resolve("base.dat").toString(), "/loop/data.dat")).status());
            String data = nn + "/loop/data.dat";
            Path m = machines(HOSTS, dir, 1, 2, 3), traces = dir.resolve("traces"), patterns = dir.resolve("patterns"), catalog = dir.resolve("catalog");
            List<String> job = List.of("run", "-np", "" + NP, "--dev", "niodev", "--machines", m.toString(), "--timeout", "120");
            List<String> app = List.of("--", StampedIo.class.getName(), data, "" + BLOCK, "" + SEGMENTS);

            HostsExtension.Result run1 = on(1, "run1.log", pdla(Map.of("PDLA_TEST_PHASE", "read", "PDLA_TEST_EXPECT", "base"),
                    concat(job, List.of("--trace", traces.toString()), app)));
            assertEquals(0, run1.status(), run1.output());
            assertTwoRanksPerHost(run1.output(), HOSTS, NP);
            assertVerified(run1.output(), NP, (long) BLOCK * SEGMENTS);
            assertEquals(0, on(1, "analyze.log", pdla("analyze", traces.toString(), "--db", patterns.toString())).status());
            HostsExtension.Result daemon = on(4, "daemon.log", pdla("daemon", "--once", "--db", catalog.toString(), "--patterns", patterns.toString(),
                    "--sservers", "1", "--ssd-space", "1g"));
            assertEquals(0, daemon.status(), daemon.output());
            assertTrue(daemon.output().contains(NP + " published"), daemon.output());

            HostsExtension.Result blocks = on(1, "blocks.log", java(HdfsNode.class.getName(), "blocks", "--namenode", nn, "/loop"));
            assertEquals(0, blocks.status(), blocks.output());
            int replicaBlocks = 0, originalBlocks = 0;
            Matcher b = BLOCKS.matcher(blocks.output());
            while (b.find()) {
                if (b.group(1).contains("/.pdla-replicas/")) {
                    replicaBlocks++;
                    String block = b.group();
                    assertEquals("SSD", b.group(3), () -> "an S-PDLA replica block off SSD: " + block + clusterState(nn));
                    assertEquals(HOSTS.host(3).name(), b.group(2), () -> "the SSD DataNode is on host 3: " + block + clusterState(nn));
                } else {
                    originalBlocks++;
                    String block = b.group();
                    assertTrue(b.group(3).matches("DISK(,DISK)*") && !b.group(2).contains(HOSTS.host(3).name()),
                            () -> "the original on the DISK DataNodes: " + block + clusterState(nn));
                }
            }
            assertTrue(replicaBlocks >= NP && originalBlocks >= 1, () -> blocks.output() + clusterState(nn));
            assertTrue(blocks.output().lines().filter(l -> l.startsWith("FILE ") && l.contains("/.pdla-replicas/")).allMatch(l -> l.contains("policy=ALL_SSD")),
                    () -> blocks.output() + clusterState(nn));

            HostsExtension.Result run2 = on(1, "run2.log", pdla(Map.of("PDLA_TEST_PHASE", "read", "PDLA_TEST_EXPECT", "base", "PDLA_CATALOG", catalog.toString()),
                    concat(job, List.of("--interceptors", "redirect"), app)));
            assertEquals(0, run2.status(), run2.output());
            assertVerified(run2.output(), NP, (long) BLOCK * SEGMENTS);
            Matcher r = REDIRECT.matcher(run2.output());
            int served = 0;
            while (r.find()) if (Integer.parseInt(r.group(2)) == SEGMENTS && r.group(4).equals("0")) served++;
            assertEquals(NP, served, "every rank read all its blocks from its replica:\n" + run2.output());
        } finally {
            nodes.forEach(HostsExtension::stop);
        }
    }

    /**
     * For a failed placement check: the NameNode's storage report now (each DataNode's storages, remaining
     * bytes, load) and the last lines of the NameNode's and DataNodes' logs, which die with the @TempDir.
     */
    private String clusterState(String nn) {
        StringBuilder s = new StringBuilder();
        try {
            s.append("\n--- storage report (HdfsNode storage) ---\n")
                    .append(on(1, "storage.log", java(HdfsNode.class.getName(), "storage", "--namenode", nn)).output());
        } catch (Exception e) {
            s.append("\n--- storage report failed: ").append(e).append('\n');
        }
        // the original (put with the client's replication 3, HOT) stays a replica short on the two DISK DataNodes, and
        // the NameNode's redundancy monitor says so every few seconds: pick out the placements of SSD blocks first
        try {
            List<String> ssd = Files.readAllLines(dir.resolve("nn.log"), java.nio.charset.StandardCharsets.ISO_8859_1).stream()
                    .filter(l -> l.contains("SSD") || l.contains("TOO_BUSY") || l.contains("NODE_STALE") || l.contains("NODE_SLOW")).toList();
            s.append("\n--- nn.log: lines on SSD placement or busy/stale/slow DataNodes (").append(ssd.size()).append(") ---\n")
                    .append(String.join("\n", ssd.subList(Math.max(0, ssd.size() - 60), ssd.size())));
        } catch (Exception e) {
            s.append("\n--- nn.log: ").append(e);
        }
        s.append(tail("nn.log"));
        for (int i = 1; i <= 3; i++) s.append(tail("dn" + i + ".log"));
        return s.toString();
    }

    private String tail(String log) {
        try {
            List<String> lines = Files.readAllLines(dir.resolve(log), java.nio.charset.StandardCharsets.ISO_8859_1);
            return "\n--- " + log + " (last 60 of " + lines.size() + " lines) ---\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (Exception e) {
            return "\n--- " + log + ": " + e;
        }
    }

    private static String[] concat(List<String> a, List<String> b, List<String> c) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        all.addAll(c);
        return all.toArray(String[]::new);
    }
}
