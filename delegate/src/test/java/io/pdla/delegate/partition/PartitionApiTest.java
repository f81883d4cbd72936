package io.pdla.delegate.partition;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PartitionApiTest {

    @Test
    void hintValuesRoundTripCaseInsensitively() {
        for (PartitionMethod m : PartitionMethod.values()) {
            assertEquals(m, PartitionMethod.fromHint(m.hintValue()));
            assertEquals(m, PartitionMethod.fromHint(m.hintValue().toUpperCase()));
        }
        assertEquals(PartitionMethod.GROUP_CYCLIC, PartitionMethod.fromHint("Group_Cyclic"));
    }

    @Test
    void aBadHintValueNamesTheKeyTheValueAndTheAllowedValues() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PartitionMethod.fromHint("diagonal"));
        String msg = e.getMessage();
        assertTrue(msg.contains(PartitionMethod.HINT) && msg.contains("diagonal"), msg);
        for (PartitionMethod m : PartitionMethod.values()) assertTrue(msg.contains(m.hintValue()), msg);
        assertThrows(IllegalArgumentException.class, () -> PartitionMethod.fromHint(null));
    }

    @Test
    void requestsAreValidatedNamingTheField() {
        assertMessage("regionStart", () -> new PartitionRequest(-1, 10, 4, 1, 1, 1));
        assertMessage("before regionStart", () -> new PartitionRequest(10, 9, 4, 1, 1, 1));
        assertMessage("stripeSize", () -> new PartitionRequest(0, 10, 0, 1, 1, 1));
        assertMessage("servers", () -> new PartitionRequest(0, 10, 4, 0, 1, 1));
        assertMessage("aggregators", () -> new PartitionRequest(0, 10, 4, 1, 0, 1));
        assertMessage("minDomainSize", () -> new PartitionRequest(0, 10, 4, 1, 1, 0));
        assertMessage("overflows", () -> new PartitionRequest(0, Long.MAX_VALUE - 1, 4, 1, 1, 1));
    }

    @Test
    void offsetsOutsideTheRegionAndBadAggregatorsAreRefused() {
        FileDomains d = FileDomains.partition(PartitionMethod.TRANSPOSE, new PartitionRequest(100, 200, 10, 3, 4, 1));
        assertMessage("outside the aggregate region", () -> d.owner(99));
        assertMessage("outside the aggregate region", () -> d.runEnd(200));
        assertMessage("aggregator 4", () -> d.domain(4));
    }

    @Test
    void anEmptyRegionGivesEveryAggregatorAnEmptyDomain() {
        for (PartitionMethod m : PartitionMethod.values()) {
            FileDomains d = FileDomains.partition(m, new PartitionRequest(64, 64, 16, 4, 3, 1));
            for (int a = 0; a < 3; a++) assertTrue(d.domain(a).isEmpty(), m + " " + a);
        }
    }

    @Test
    void groupCyclicLeavesTheAggregatorsBeyondWholeGroupsIdle() {
        // P = 11, S = 4: two groups of four, aggregators 8..10 idle (ROMIO's Lustre avail_cb_nodes = S * floor(P/S))
        FileDomains d = FileDomains.partition(PartitionMethod.GROUP_CYCLIC, new PartitionRequest(0, 64 * 10, 10, 4, 11, 1));
        for (int a = 0; a < 8; a++) assertTrue(!d.domain(a).isEmpty(), "aggregator " + a);
        for (int a = 8; a < 11; a++) assertTrue(d.domain(a).isEmpty(), "aggregator " + a);
    }

    private static void assertMessage(String part, org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(part), "message '" + e.getMessage() + "' should name " + part);
    }
}
