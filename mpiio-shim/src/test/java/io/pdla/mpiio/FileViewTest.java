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

    /**
     * The straight path's shortcut agrees with {@link FileView#extents}: a call it maps to one run is the one extent
     * extents gives, and with one block per tile (IOR's view) it maps every call extents gives as one extent; calls
     * across blocks that happen to abut it may leave to the general path (views of random vectors, indexed types and
     * IOR's subarray, contiguous ones at random displacements, etypes of 1, 3 and 4 bytes).
     */
    @Test
    void aPlainRunIsTheOneExtentTheViewGives() {
        Random rnd = new Random();
        long seed = rnd.nextLong();
        rnd.setSeed(seed);
        int runs = 0;
        for (int trial = 0; trial < 400; trial++) {
            long etype = new long[]{1, 3, 4}[rnd.nextInt(3)];
            FileType ft = switch (rnd.nextInt(4)) {
                case 0 -> FileType.bytes(etype * (1 + rnd.nextInt(4)));
                case 1 -> Datatypes.vector(1 + rnd.nextInt(4), etype * (1 + rnd.nextInt(5)), etype * (6 + rnd.nextInt(10)));
                case 2 -> Datatypes.indexed(new long[]{etype * (1 + rnd.nextInt(3)), etype * (1 + rnd.nextInt(7))},
                        new long[]{etype * rnd.nextInt(3), etype * (4 + rnd.nextInt(9))});
                default -> {
                    int np = 1 + rnd.nextInt(4), per = 1 + rnd.nextInt(3);
                    yield Datatypes.subarray(new int[]{1, per * np}, new int[]{1, per}, new int[]{0, per * rnd.nextInt(np)}, Datatypes.Order.C, (int) etype);
                }
            };
            FileView v = new FileView(rnd.nextInt(5000), FileType.bytes(etype), ft, "native");
            for (int call = 0; call < 50; call++) {
                long pos = rnd.nextInt(200);
                long n = etype * (1 + rnd.nextInt(6));
                ExtentList e = v.extents(pos, n);
                long at = v.plainRunStart(pos, n);
                String what = "seed " + seed + ": " + ft + " at disp " + v.displacement() + ", position " + pos + ", " + n + " bytes";
                if (at >= 0) {
                    assertEquals(1, e.size(), what + ": the shortcut took a call of " + e.size() + " extents for one run");
                    assertEquals(e.offset(0), at, what);
                    runs++;
                } else if (e.size() == 1 && n <= ft.length(0) && ft.blockCount() == 1 && ft.extentBytes() > ft.sizeBytes()) {
                    // one block per tile, gaps between tiles: one extent is a call inside a block, which the shortcut must take
                    throw new AssertionError(what + ": one run inside a block left to the general path");
                }
            }
        }
        org.junit.jupiter.api.Assertions.assertTrue(runs > 1000, "seed " + seed + ": only " + runs + " calls were one run");
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
