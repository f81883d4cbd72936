package io.pdla.mpiio;

import io.pdla.access.ExtentList;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Views map positions to file bytes. The reference here enumerates the view byte by byte (tile after
 * tile, block after block), independently of the O(log n) mapping in {@link FileView}.
 */
class FileViewTest {
    /** File offsets of the first {@code n} view bytes, the slow obvious way. */
    private static List<Long> referenceBytes(long disp, FileType ft, long n) {
        List<Long> out = new ArrayList<>();
        for (long tile = 0; out.size() < n; tile++) {
            for (int b = 0; b < ft.blockCount() && out.size() < n; b++) {
                for (long k = 0; k < ft.length(b) && out.size() < n; k++) {
                    out.add(disp + tile * ft.extentBytes() + ft.displacement(b) + k);
                }
            }
        }
        return out;
    }

    private static List<Long> bytesOf(ExtentList l) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < l.size(); i++) for (long k = 0; k < l.length(i); k++) out.add(l.offset(i) + k);
        return out;
    }

    private static void assertMatchesReference(FileView v, long etype, Random rnd) {
        List<Long> ref = referenceBytes(v.displacement(), v.filetype(), 20_000);
        for (int trial = 0; trial < 200; trial++) {
            long pos = rnd.nextInt(1000);
            long n = etype * rnd.nextInt(200);
            if ((pos * etype + n) > ref.size()) continue;
            List<Long> want = ref.subList((int) (pos * etype), (int) (pos * etype + n));
            assertEquals(want, bytesOf(v.extents(pos, n)), "position " + pos + ", " + n + " bytes");
            assertEquals(ref.get((int) (pos * etype)), v.byteOffset(pos), "byte offset of " + pos);
        }
    }

    @Test
    void vectorViewsMatchTheReference() {
        FileType ft = Datatypes.vector(3, 8, 20).resized(0, 64);
        assertMatchesReference(new FileView(100, FileType.bytes(4), ft, "native"), 4, new Random(1));
    }

    /** One block at a non-zero lower bound is contiguous, but its data starts at the bound (found by the delegates' differential). */
    @Test
    void aSingleBlockIndexedViewStartsAtItsDisplacement() {
        FileType one = Datatypes.indexed(new long[]{50}, new long[]{16065});
        FileView v = new FileView(7, FileType.bytes(1), one, "native");
        assertEquals(7 + 16065, v.byteOffset(0));
        assertEquals(ExtentList.of(7 + 16065, 50), v.extents(0, 50));
        assertEquals(0, v.positionAtFileSize(7 + 16065));
        assertEquals(20, v.positionAtFileSize(7 + 16065 + 20));
        assertMatchesReference(v, 1, new Random(3));
    }

    @Test
    void subarrayViewsMatchTheReference() {
        FileType tile = Datatypes.subarray(new int[]{10, 12}, new int[]{4, 5}, new int[]{3, 6}, Datatypes.Order.C, 8);
        assertEquals(10 * 12 * 8, tile.extentBytes());
        assertEquals(4 * 5 * 8, tile.sizeBytes());
        assertEquals((3 * 12 + 6) * 8, tile.displacement(0));
        assertMatchesReference(new FileView(0, FileType.bytes(8), tile, "native"), 8, new Random(2));
    }

    @Test
    void fortranOrderSubarrayIsTheTransposedCOrderOne() {
        FileType f = Datatypes.subarray(new int[]{12, 10}, new int[]{5, 4}, new int[]{6, 3}, Datatypes.Order.FORTRAN, 4);
        FileType c = Datatypes.subarray(new int[]{10, 12}, new int[]{4, 5}, new int[]{3, 6}, Datatypes.Order.C, 4);
        assertEquals(c.blockCount(), f.blockCount());
        for (int i = 0; i < c.blockCount(); i++) assertEquals(c.displacement(i), f.displacement(i));
    }

    @Test
    void blockDistributionTilesCoverTheArrayExactlyOnce() {
        int[] sizes = {7, 10};
        int[] grid = {2, 3};
        int[] owner = new int[70];
        for (int rank = 0; rank < 6; rank++) {
            FileType t = Datatypes.darrayBlock(rank, sizes, grid, Datatypes.Order.C, 1);
            for (int b = 0; b < t.blockCount(); b++) {
                for (long k = 0; k < t.length(b); k++) owner[(int) (t.displacement(b) + k)]++;
            }
        }
        for (int i = 0; i < 70; i++) assertEquals(1, owner[i], "element " + i);
    }

    @Test
    void indexedViewMatchesTheReference() {
        FileType ft = Datatypes.indexed(new long[]{2, 5, 1}, new long[]{0, 4, 20}).resized(0, 24);
        assertMatchesReference(new FileView(7, FileType.bytes(1), ft, "native"), 1, new Random(3));
    }

    @Test
    void positionAtFileSizeCountsViewBytesBelowTheSize() {
        FileView v = new FileView(10, FileType.bytes(1), Datatypes.vector(1, 4, 4).resized(0, 10), "native");
        // view bytes at 10..13, 20..23, 30..33: a file of 22 bytes holds 4 + 2 of them
        assertEquals(6, v.positionAtFileSize(22));
        assertEquals(0, v.positionAtFileSize(5));
        assertEquals(12, v.positionAtFileSize(40));
    }

    @Test
    void badSubarrayArgumentsNameTheDimension() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Datatypes.subarray(new int[]{4, 4}, new int[]{2, 3}, new int[]{0, 2}, Datatypes.Order.C, 1));
        assertEquals(true, e.getMessage().contains("dimension 1"), e.getMessage());
    }
}
