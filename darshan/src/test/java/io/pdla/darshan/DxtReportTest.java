package io.pdla.darshan;

import static org.junit.jupiter.api.Assertions.*;

import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/**
 * What no sample log holds: segments with thread ids (DXT_POSIX version 2 and later) and a POSIX trace of a file
 * with a LUSTRE record, whose OSTs darshan-dxt-parser prints per segment. Expected lines follow
 * {@code dxt_log_print_posix_file} of darshan-util 3.5.0.
 */
class DxtReportTest {
    private static final long MIB = 1 << 20;

    private static String segment(String module, long rank, String op, int index, long offset, long length,
                                  String start, String end, String osts, String thread) {
        return String.format("%8s%8d%7s%9d%16d%16d%12s%12s  ", module, rank, op, index, offset, length, start, end)
                + osts + " " + thread + "\n";
    }

    @Test
    void posixSegmentsOnLustreShowTheirOstsAndThreads() {
        long bigThread = -2L;   // an unsigned long above 2^63: printed unsigned, as %lu does
        DxtRecord d = new DxtRecord(42, 3, "nid001", 2, 1,
                new long[] {0, MIB, 3 * MIB}, new long[] {2 * MIB, 4096, MIB},
                new double[] {0.5, 1.0, 2.0}, new double[] {0.75, 1.00004, 2.5}, new long[] {bigThread, 7, bigThread});
        long[] comp = {MIB, 2, 0, 0, 0, -1, 0};   // 1 MiB stripes over 2 OSTs, from 0 to EOF
        LustreRecord lustre = new LustreRecord(42, -1, new long[][] {comp}, new String[] {""}, new long[] {10, 11});
        StringBuilder out = new StringBuilder();
        new DxtReport(out, new StringBuilder(), ZoneId.of("UTC"))
                .record(ModuleId.DXT_POSIX, d, 2, "/lus/f", new Mount("/lus", "lustre"), lustre);
        String expected = "\n# DXT, file_id: 42, file_name: /lus/f\n"
                + "# DXT, rank: 3, hostname: nid001\n"
                + "# DXT, number of threads: 2\n"
                + "# DXT, write_count: 2, read_count: 1\n"
                + "# DXT, mnt_pt: /lus, fs_type: lustre\n"
                + "# DXT, Lustre stripe components:\n"
                + "#\t[Component 1] stripe_ext: 0 - EOF, stripe_size: 1048576, stripe_count: 2, OSTs: 10 11\n"
                + DxtReport.COLUMNS + "   [OST]   Pthread-ID\n"
                // 2 MiB from 0 crosses both stripes; the others sit in the second stripe of a round
                + segment("X_POSIX", 3, "write", 0, 0, 2 * MIB, "0.5000", "0.7500", " [10] [11]  ", "18446744073709551614")
                + segment("X_POSIX", 3, "write", 1, MIB, 4096, "1.0000", "1.0000", " [11]  ", "   7")
                + segment("X_POSIX", 3, "read", 0, 3 * MIB, MIB, "2.0000", "2.5000", " [11]  ", "18446744073709551614");
        assertEquals(expected, out.toString());
    }

    @Test
    void versionOneSegmentsHaveNoThreadAndCountOneThread() {
        DxtRecord d = new DxtRecord(7, 0, "h", 0, 1, new long[] {-1}, new long[] {100}, new double[] {0.00005},
                new double[] {0.00015}, new long[] {99});
        StringBuilder out = new StringBuilder();
        new DxtReport(out, new StringBuilder(), ZoneId.of("UTC")).record(ModuleId.DXT_MPIIO, d, 2, null, null, null);
        assertEquals("\n# DXT, file_id: 7, file_name: (null)\n"
                + "# DXT, rank: 0, hostname: h\n"
                + "# DXT, number of threads: 1\n"
                + "# DXT, write_count: 0, read_count: 1\n"
                + "# DXT, mnt_pt: UNKNOWN, fs_type: UNKNOWN\n"
                + DxtReport.COLUMNS + "   Pthread-ID\n"
                // %.4f rounds the exact binary value: 0.00005 is a little above, 0.00015 a little below the half
                + segment("X_MPIIO", 0, "read", 0, -1, 100, "0.0001", "0.0001", "", "N/A"), out.toString());
    }

    @Test
    void threadsAreCountedAsUnsignedLongs() {
        assertEquals(2, DxtReport.threadCount(new long[] {-1L, 1L, -1L}, 3));
        assertEquals(3, DxtReport.threadCount(new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0}, 3));
        assertEquals(1, DxtReport.threadCount(new long[] {5, 5, 5, 9}, 3), "only the first n ids count");
    }

    @Test
    void aLustreRecordWithAZeroStripeSizePrintsNoOstsInsteadOfFailing() {
        // darshan-util would divide by zero here; a damaged record must not stop the report
        DxtRecord d = new DxtRecord(1, 0, "h", 1, 0, new long[] {0}, new long[] {10}, new double[] {0}, new double[] {1},
                new long[] {0});
        LustreRecord damaged = new LustreRecord(1, 0, new long[][] {{0, 4, 0, 0, 0, -1, 0}}, new String[] {""}, new long[] {1, 2, 3, 4});
        StringBuilder out = new StringBuilder();
        new DxtReport(out, new StringBuilder(), ZoneId.of("UTC")).record(ModuleId.DXT_POSIX, d, 1, "/f", null, damaged);
        assertTrue(out.toString().endsWith(segment("X_POSIX", 0, "write", 0, 0, 10, "0.0000", "1.0000", "  ", "N/A")),
                out.toString());
    }
}
