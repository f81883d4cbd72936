package io.pdla.hdfs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code HdfsNode wait}: its options, and its answer against the shared MiniDFSCluster (2 DISK + 2 SSD DataNodes):
 * ready when the SSD storages it asks for are there with space, a timeout naming what it found when they are not.
 */
@ExtendWith(SharedMiniCluster.class)
class HdfsNodeWaitTest {
    @Test
    void optionsParseWithDefaultsAndBadCountsAreRefusedByName() {
        assertEquals(new HdfsNode.WaitFor(3, 0, 60), HdfsNode.parseWait(new String[]{"--namenode", "hdfs://h:1", "--datanodes", "3"}));
        assertEquals(new HdfsNode.WaitFor(3, 1, 90), HdfsNode.parseWait(new String[]{"--datanodes", "3", "--ssd", "1", "--seconds", "90"}));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HdfsNode.parseWait(new String[]{"--ssd", "1"}))
                .getMessage().contains("--datanodes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HdfsNode.parseWait(new String[]{"--datanodes", "3", "--ssd", "one"}))
                .getMessage().contains("--ssd wants a whole number >= 0, was one"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HdfsNode.parseWait(new String[]{"--datanodes", "3", "--ssd", "-1"}))
                .getMessage().contains("--ssd"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HdfsNode.parseWait(new String[]{"--datanodes", "3", "--seconds", "x"}))
                .getMessage().contains("--seconds"));
    }

    @Test
    void waitIsReadyWhenTheSsdStoragesAreLiveWithSpaceAndSaysWhatItFound() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = HdfsNode.waitForDataNodes(new String[]{"--namenode", SharedMiniCluster.cluster().uri().toString(),
                "--datanodes", "4", "--ssd", "2", "--seconds", "30"}, new PrintStream(out, true, StandardCharsets.UTF_8));
        String said = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, said);
        assertTrue(said.contains("READY 4 live DataNode(s) and 2 live SSD storage(s)"), said);
        assertEquals(2, said.lines().filter(l -> l.startsWith("STORAGE ") && l.contains("[SSD remaining=")).count(), said);
        assertEquals(2, said.lines().filter(l -> l.startsWith("STORAGE ") && l.contains("[DISK remaining=")).count(), said);
    }

    @Test
    void waitTimesOutNamingWhatWasMissingAndWhatWasThere() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = HdfsNode.waitForDataNodes(new String[]{"--namenode", SharedMiniCluster.cluster().uri().toString(),
                "--datanodes", "4", "--ssd", "3", "--seconds", "1"}, new PrintStream(out, true, StandardCharsets.UTF_8));
        String said = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, said);
        assertTrue(said.contains("TIMEOUT after 1 s waiting for 4 live DataNode(s) and 3 live SSD storage(s) with remaining capacity > 0: found 4 live DataNode(s), 2 SSD storage(s)"), said);
        assertTrue(said.contains("SSD remaining=") && said.contains("DISK remaining="), said);
    }

    @Test
    void storagePrintsEachLiveDataNodesStorages() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        HdfsNode.storage(new String[]{"--namenode", SharedMiniCluster.cluster().uri().toString()}, new PrintStream(out, true, StandardCharsets.UTF_8));
        String said = out.toString(StandardCharsets.UTF_8);
        assertEquals(4, said.lines().filter(l -> l.startsWith("STORAGE ") && l.contains(" xceivers=")).count(), said);
        assertTrue(said.contains("FOUND 4 live DataNode(s), 2 SSD storage(s) with remaining capacity > 0"), said);
    }
}
