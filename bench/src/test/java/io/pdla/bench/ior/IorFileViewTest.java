package io.pdla.bench.ior;

import io.pdla.mpiio.FileType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * IOR -V's view against the segmented layout: tiling the filetype from displacement 0 and counting in
 * etypes, the view offset of each of a rank's transfers must land on the byte the layout puts it at.
 */
class IorFileViewTest {
    @ParameterizedTest
    @CsvSource({"1,16384,16384,5,false", "4,16384,16384,8,false", "3,65536,16384,3,false", "4,1048576,262144,2,false",
            "4,65536,16384,3,true", "2,32768,8192,1,true"})
    void everyTransferOfEveryRankLandsWhereTheLayoutPutsIt(int np, long b, long t, int s, boolean fpp) {
        Layout layout = new Layout(np, b, t, s, fpp);
        IorFileView view = new IorFileView(b, t, np, fpp);
        assertEquals(t, view.etype().sizeBytes());
        for (int dataRank = 0; dataRank < np; dataRank++) {
            FileType ft = view.filetype(dataRank);
            assertEquals(b, ft.sizeBytes(), "one block of the rank per filetype");
            for (int seg = 0; seg < s; seg++) {
                for (long k = 0; k < b / t; k++) {
                    long offset = layout.offset(dataRank, seg, k);
                    long etypes = view.viewOffset(offset, dataRank);
                    assertEquals(offset, fileByte(ft, etypes * t), "rank " + dataRank + " segment " + seg + " transfer " + k);
                }
            }
        }
    }

    /** The file byte at view byte {@code viewByte} of a view of {@code ft} at displacement 0. */
    private static long fileByte(FileType ft, long viewByte) {
        long tile = viewByte / ft.sizeBytes();
        long inTile = viewByte % ft.sizeBytes();
        for (int i = 0; i < ft.blockCount(); i++) {
            if (inTile < ft.length(i)) return tile * ft.extentBytes() + ft.displacement(i) + inTile;
            inTile -= ft.length(i);
        }
        throw new AssertionError("past the filetype");
    }
}
