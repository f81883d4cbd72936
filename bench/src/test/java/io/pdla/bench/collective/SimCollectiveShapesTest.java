package io.pdla.bench.collective;

import io.pdla.bench.collective.SimCollectiveBench.Row;
import io.pdla.bench.collective.SimCollectiveBench.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The MPI-Tile-IO shape of {@code pdla bench sim-collective}: real MPJ ranks, read-back verified by each rank. */
class SimCollectiveShapesTest {
    @Test
    void tilesAreAsSquareAsTheProcessCountAllows() {
        assertEquals(2, SimCollectiveBench.tilesAcross(4));
        assertEquals(3, SimCollectiveBench.tilesAcross(6));
        assertEquals(8, SimCollectiveBench.tilesAcross(64));
        assertEquals(16, SimCollectiveBench.tilesAcross(128));
        assertEquals(7, SimCollectiveBench.tilesAcross(7));
        assertEquals(1, SimCollectiveBench.tilesAcross(1));
    }

    @Test
    void tileShapeRunsIndependentTwoPhaseAndDelegatedAndReplaysEach(@TempDir Path root) throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        List<Row> rows = SimCollectiveBench.run(4, 2, 4096, 8, Shape.TILE, Map.of("cb_nodes", "2"), root, new PrintStream(text, true));
        String out = text.toString();
        assertTrue(out.contains("2 x 2 tiles"), out);
        assertEquals(List.of("write", "read"), rows.stream().map(Row::phase).toList());
        for (Row r : rows) {
            assertNotNull(r.delegates(), "the delegated run is replayed");
            // the whole 128 KiB array fits one window of each of the two aggregators: one request each; independent
            // access makes at least one (sieved) request per rank, since the four tiles' rows interleave
            assertEquals(2, r.collectiveRequests(), out);
            assertTrue(r.independentRequests() >= 4, out);
            assertEquals(2, r.delegates().requests(), "two delegates, one flush or page load each: " + out);
            assertTrue(r.independentMiBps() > 0 && r.collectiveMiBps() > 0, out);
        }
    }
}
