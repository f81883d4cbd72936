package io.pdla.patterns.db;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdla.pattern.Geometry;
import io.pdla.patterns.template.OpMix;
import io.pdla.patterns.template.PatternKind;
import io.pdla.patterns.template.Temporal;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StoredPatternTest {
    private static StoredPattern stored(Geometry g) {
        return new StoredPattern(PatternKind.STRIDED, OpMix.READ_ONLY, g.spec(), 4, g.totalBytes(), 1, new long[]{16},
                new Temporal(Temporal.Kind.FIXED, 1000), List.of(), null, "STRIDED");
    }

    @Test
    void jsonWrittenBeforeGroupingReadsAsUngrouped() throws Exception {
        StoredPattern p = stored(Geometry.strided(4096, 16, 64, 4));
        ObjectNode json = EntryCodec.json().valueToTree(p);
        ObjectNode spec = (ObjectNode) json.get("geometry");
        assertEquals(1, spec.get("groups").asInt());
        spec.remove("groups");
        spec.remove("groupStride");
        StoredPattern back = EntryCodec.json().treeToValue(json, StoredPattern.class);
        assertEquals(p, back);
        assertEquals(Geometry.strided(4096, 16, 64, 4), back.closedForm());
        assertEquals(p, EntryCodec.json().readValue(EntryCodec.json().writeValueAsBytes(p), StoredPattern.class));
    }

    @Test
    void aGroupedGeometryIsRefusedRatherThanStoredWithoutItsGrouping() {
        Geometry grouped = Geometry.grouped(Geometry.strided(0, 16, 64, 4), 4, 16);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> stored(grouped));
        assertTrue(e.getMessage().contains("never grouped"), e.getMessage());
    }
}
