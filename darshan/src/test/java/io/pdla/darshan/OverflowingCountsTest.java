package io.pdla.darshan;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Counts whose byte size overflows a long (found by DarshanLogFuzzTest: 2^60 HEATMAP bins of 16 bytes is 0 bytes,
 * which passed the size check and then sized an array of (int) 2^60 = 0 entries): refused as damage, naming it.
 */
class OverflowingCountsTest {
    private static RecordCursor cursor(long... words) {
        ByteBuffer b = ByteBuffer.allocate(8 * words.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long w : words) b.putLong(w);
        return new RecordCursor(b.array(), b.capacity(), ByteOrder.LITTLE_ENDIAN, "HEATMAP", 1234);
    }

    @Test
    void aHeatmapBinCountWhoseSizeOverflowsIsDamageNotAnIndexError() {
        RecordCursor c = cursor(1, 0, Double.doubleToLongBits(0.1), 1L << 60, 0, 0, 7, 7);
        DarshanFormatException e = assertThrows(DarshanFormatException.class, () -> ModuleDecoders.heatmaps(c, new ArrayList<>()));
        assertTrue(e.getMessage().contains("HEATMAP bins") && e.getMessage().contains(String.valueOf(1L << 60)), e.getMessage());
    }

    @Test
    void dxtSegmentCountsWhoseSizesOverflowAreDamage() {
        long[] words = new long[14];
        words[11] = (1L << 62) / 5;   // write segments: x 40 bytes wraps around
        words[12] = 1;                // read segments
        RecordCursor c = cursor(words);
        assertThrows(DarshanFormatException.class, () -> ModuleDecoders.dxt(c, 5, true));
    }

    @Test
    void lustreStripeCountsWhoseSizesOverflowAreDamage() {
        RecordCursor v1 = cursor(1, 0, 0, 0, 0, 1 << 20, 1L << 61, 0);
        assertThrows(DarshanFormatException.class, () -> ModuleDecoders.lustre(v1, 1));
        RecordCursor v2 = cursor(1, 0, 1L << 59, 1L << 61, 0, 0);
        assertThrows(DarshanFormatException.class, () -> ModuleDecoders.lustre(v2, 2));
    }

    /** Found by CI's DarshanLogFuzzTest (a moved LUSTRE region): component stripe counts summed to a negative OST count. */
    @Test
    void lustreComponentStripeCountsThatAreNegativeOrHugeKeepOnlyTheStoredOsts() throws DarshanFormatException {
        long[] comp1 = {1 << 20, -1_164_515_691L, 0, 0, 0, 0, 0, 0, 0};   // 7 counters and a 16-byte pool name
        long[] comp2 = {1 << 20, Long.MAX_VALUE, 0, 0, 0, 0, 0, 0, 0};
        long[] words = new long[4 + 18 + 3];
        words[0] = 1; words[2] = 2; words[3] = 3;
        System.arraycopy(comp1, 0, words, 4, 9);
        System.arraycopy(comp2, 0, words, 13, 9);
        words[22] = 10; words[23] = 11; words[24] = 12;
        LustreRecord negativeFirst = ModuleDecoders.lustre(cursor(words), 2);
        assertEquals(2, negativeFirst.components().length);
        assertArrayEquals(new long[] {10, 11, 12}, negativeFirst.ostIds(), "a huge count keeps the three stored OSTs");

        words[5] = 2;     // a valid count, then a huge one: the sum must not wrap around
        assertArrayEquals(new long[] {10, 11, 12}, ModuleDecoders.lustre(cursor(words), 2).ostIds());

        words[5] = -1_164_515_691L;
        words[14] = -7;   // both counts damaged low: no OST is attributed
        assertEquals(0, ModuleDecoders.lustre(cursor(words), 2).ostIds().length);
    }
}
