package io.pdla.hdfs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(SharedMiniCluster.class)
class MiniClusterTest {
    @Test
    void dataNodesCarryTheRequestedStorageTypes() throws IOException {
        MiniCluster c = SharedMiniCluster.cluster();
        Map<String, List<String>> nodes = c.dataNodeStorageTypes();
        assertEquals(4, nodes.size(), "live DataNodes: " + nodes);
        assertEquals(2, nodes.values().stream().filter(List.of("DISK")::equals).count(), nodes.toString());
        assertEquals(2, nodes.values().stream().filter(List.of("SSD")::equals).count(), nodes.toString());
        assertTrue(c.uri().toString().startsWith("hdfs://localhost:"), c.uri().toString());
        assertEquals(c.uri() + "/a/b", c.uri("/a/b").toString());
    }

    @Test
    void builderRefusesClustersThatCannotWork() {
        assertThrows(IllegalArgumentException.class, () -> MiniCluster.builder().diskNodes(0).ssdNodes(0).start());
        assertThrows(IllegalArgumentException.class, () -> MiniCluster.builder().replication(0).start());
        assertThrows(IllegalArgumentException.class, () -> SharedMiniCluster.cluster().uri("relative/path"));
    }
}
