package io.pdla.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `pdla demo` runs here as in the README, and its output is checked. */
class DemoCommandTest {
    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path tmp;

    @Test
    void demoRunsFourRanksAndReportsVerifiedBandwidths() throws Exception {
        java.nio.file.Path report = tmp.resolve("demo-report.html");
        java.net.URI demos = java.net.URI.create(DemoCommand.SIMPFS_DIR);
        io.pdla.storage.StorageDriver simpfs = io.pdla.storage.StorageDrivers.installed().forUri(demos);
        java.util.Set<java.net.URI> before = demoDirectories(simpfs, demos);
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true));
        int code;
        try {
            code = PdlaCommand.commandLine().execute("demo", "--segments", "64", "--report", report.toString());
        } finally {
            System.setOut(old);
        }
        String out = buf.toString();
        assertEquals(0, code, out);
        // the last line: the report of run 1, with every chart and the replicas the loop built
        String[] lines = out.strip().split("\\R");
        assertEquals("pdla demo: done; report of run 1 (open it in a browser): " + report.toAbsolutePath(), lines[lines.length - 1], out);
        String html = java.nio.file.Files.readString(report);
        for (String chart : java.util.List.of("timeline", "critical", "sizes", "bandwidth", "offsets", "patterns", "replica-layout", "redirect-share")) {
            assertTrue(html.contains("<figure class=\"chart\" data-chart=\"" + chart + "\"><svg"), chart);
        }
        assertTrue(html.contains("from replicas: 4,194,304 bytes (100.0%)"), "run 1's 4 x 64 x 16 KiB reads are all inside the replicas");
        assertEquals(java.util.List.of(), io.pdla.report.SelfContained.violations(html));
        assertTrue(out.contains("4 MPJ ranks"), out);
        Matcher write = Pattern.compile("Max Write: +([0-9.]+) MiB/sec").matcher(out);
        Matcher read = Pattern.compile("Max Read: +([0-9.]+) MiB/sec").matcher(out);
        assertTrue(write.find() && Double.parseDouble(write.group(1)) > 0, out);
        assertTrue(read.find() && Double.parseDouble(read.group(1)) > 0, out);
        assertTrue(out.contains("every byte read back was verified"), out);
        // the PDLA loop on sim-pfs: all of run 2's 4 x 64 strided reads come from the replicas
        Matcher run2 = Pattern.compile("run 2: redirected +([0-9.]+) +(\\d+) / (\\d+)").matcher(out);
        assertTrue(run2.find(), out);
        assertEquals("256", run2.group(2), out);
        assertEquals("256", run2.group(3), out);
        assertTrue(out.contains("pdla demo: done"), out);
        // the scheme table: exactly the six schemes, read bandwidth first; S-PDLA never below H-PDLA (Algorithm 1
        // only moves a pattern to SSD servers when the model predicts a gain) and both above the original here
        java.util.Map<String, Double> schemeRead = new java.util.HashMap<>();
        Matcher row = Pattern.compile("(?m)^(Original|PD|H-PDLA|S-ORIG|NS-PDLA|S-PDLA) +([0-9.]+) +([0-9.]+)").matcher(out);
        while (row.find()) schemeRead.put(row.group(1), Double.parseDouble(row.group(2)));
        assertEquals(java.util.Set.of("Original", "PD", "H-PDLA", "S-ORIG", "NS-PDLA", "S-PDLA"), schemeRead.keySet(), out);
        assertTrue(schemeRead.get("H-PDLA") > schemeRead.get("Original"), out);
        assertTrue(schemeRead.get("S-PDLA") >= schemeRead.get("H-PDLA"), out);
        // the demo's files on sim-pfs (in sim-pfs's root, outside its own directory) went with it
        java.util.Set<java.net.URI> made = new java.util.HashSet<>(demoDirectories(simpfs, demos));
        made.removeAll(before);
        assertTrue(made.size() <= 1, "this demo's directory on sim-pfs, emptied (the store keeps directories): " + made);
        for (java.net.URI dir : made) assertEquals(java.util.List.of(), files(simpfs, dir), "files the demo left on sim-pfs");
    }

    private static java.util.Set<java.net.URI> demoDirectories(io.pdla.storage.StorageDriver d, java.net.URI demos) throws java.io.IOException {
        java.util.Set<java.net.URI> out = new java.util.HashSet<>();
        try {
            for (io.pdla.storage.StorageStatus s : d.list(demos)) if (s.directory()) out.add(s.uri());
        } catch (io.pdla.storage.StorageException none) {
            // no demo ran in this root yet
        }
        return out;
    }

    private static java.util.List<java.net.URI> files(io.pdla.storage.StorageDriver d, java.net.URI dir) throws java.io.IOException {
        java.util.List<java.net.URI> out = new java.util.ArrayList<>();
        for (io.pdla.storage.StorageStatus s : d.list(dir)) {
            if (s.directory()) out.addAll(files(d, s.uri()));
            else out.add(s.uri());
        }
        return out;
    }

    @Test
    @org.junit.jupiter.api.Tag("heavy")
    void demoOnHdfsWritesAndReadsBackThroughAMiniCluster() {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true));
        int code;
        try {
            code = PdlaCommand.commandLine().execute("demo", "--pfs", "hdfs", "--segments", "64");
        } finally {
            System.setOut(old);
        }
        String out = buf.toString();
        assertEquals(0, code, out);
        assertTrue(out.contains("MiniDFSCluster"), out);
        assertTrue(out.contains("hdfs://"), out);
        assertTrue(Pattern.compile("Max Read: +[0-9.]+ MiB/sec").matcher(out).find(), out);
        assertTrue(out.contains("verify: passed"), out);
        // the PDLA loop on HDFS: replicas built in the cluster serve all of run 2's reads
        Matcher run2 = Pattern.compile("run 2: redirected +([0-9.]+) +(\\d+) / (\\d+)").matcher(out);
        assertTrue(run2.find(), out);
        assertEquals("256", run2.group(2), out);
        assertEquals("256", run2.group(3), out);
    }
}
