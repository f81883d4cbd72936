package io.pdla.access;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExtentListTest {
    @Test
    void builderMergesAdjacentExtentsAndDropsEmptyOnes() {
        ExtentList l = ExtentList.builder().add(0, 10).add(10, 5).add(20, 0).add(30, 4).build();
        assertEquals(List.of(new Extent(0, 15), new Extent(30, 4)), l);
        assertEquals(19, l.totalBytes());
        assertEquals(34, l.endOffset());
        assertEquals(0, l.firstOffset());
    }

    @Test
    void sliceCountsBytesInBufferOrder() {
        ExtentList l = ExtentList.builder().add(100, 10).add(0, 10).add(50, 10).build();
        assertEquals(List.of(new Extent(105, 5), new Extent(0, 10), new Extent(50, 2)), l.slice(5, 17));
        assertEquals(ExtentList.EMPTY, l.slice(30, 0));
        assertThrows(IllegalArgumentException.class, () -> l.slice(25, 10));
    }

    @Test
    void monotoneMeansOffsetsNeverGoBackwardsOrOverlap() {
        assertTrue(ExtentList.builder().add(0, 10).add(20, 10).build().isMonotone());
        assertFalse(ExtentList.builder().add(20, 10).add(0, 10).build().isMonotone());
        assertFalse(ExtentList.builder().add(0, 10).add(5, 10).build().isMonotone());
    }

    @Test
    void negativeOffsetsAndLengthsAreRejectedWithTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ExtentList.of(-5, 3));
        assertTrue(e.getMessage().contains("-5"));
        assertThrows(IllegalArgumentException.class, () -> ExtentList.builder().add(0, -1));
        assertThrows(IllegalArgumentException.class, () -> ExtentList.of(10, 5).shift(-11));
    }

    @Test
    void shiftMovesEveryExtent() {
        assertEquals(List.of(new Extent(110, 5), new Extent(130, 5)),
                ExtentList.builder().add(10, 5).add(30, 5).build().shift(100));
    }
}
