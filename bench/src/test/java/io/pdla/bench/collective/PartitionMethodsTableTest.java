package io.pdla.bench.collective;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PartitionMethodsTableTest {
    @Test
    void groupCyclicKeepsOneAggregatorPerServerPerGroupAndTransposeAtMostOneConflictPerServer() {
        int s = 4;
        PartitionMethodsTable.Options o = new PartitionMethodsTable.Options(s, 16, 2L << 20, 256 << 10, 4L << 20, 1, new int[]{s, 2 * s, 3});
        List<PartitionMethodsTable.Row> rows = PartitionMethodsTable.run(o);
        assertEquals(3 * 6, rows.size(), "five methods plus stripe-size I/O, three aggregator counts");
        for (PartitionMethodsTable.Row r : rows) {
            assertTrue(r.writeMiBps() > 0, r.toString());
            if (r.method().equals("group_cyclic")) {
                int groups = Math.max(1, r.aggregators() / s);
                assertEquals(groups, r.maxAggregatorsPerServer(), r.toString());
                assertTrue(r.maxConflictsPerServer() <= groups - 1, r.toString());
            }
            if (r.method().equals("transpose")) assertTrue(r.maxConflictsPerServer() <= 1, r.toString());
            if (r.method().equals("static_cyclic") && r.aggregators() == 2 * s) {
                assertTrue(r.maxConflictsPerServer() > 1, "interleaved aggregators revoke each other: " + r);
            }
        }
    }
}
