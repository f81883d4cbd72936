package io.pdla.mpiio.programs;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.IoRequest;
import io.pdla.mpiio.MPIIO;
import mpi.Intracomm;
import mpi.MPI;

import java.nio.file.Path;

import static io.pdla.mpiio.programs.Checks.expectEquals;

/**
 * Two nonblocking collectives on two files of one rank in flight at once (MPI allows it: each file's
 * collectives are ordered, different files' are not): both files force two-phase with one aggregator and
 * small windows, so every aggregator round of one file can meet a round of the other on the same rank.
 * Interleaved iWriteAll/iReadAll (file b, individual pointer) and iWriteAtAll/iReadAtAll (file a) on every rank,
 * repeated; every byte checked. Args: directory, rounds.
 */
public final class ConcurrentCollectivesProgram {
    private static final int BLOCK = 1536;   // bytes of each rank in each tile
    private static final int BLOCKS = 24;    // tiles per call

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path dir = Path.of(args[0]);
        int repeats = Integer.parseInt(args[1]);
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.Rank(), np = w.Size();
        Checks c = new Checks();
        c.check("two files' iWriteAll/iReadAll in flight at once keep their data apart", () -> {
            Info hints = new Info().set("romio_cb_write", "enable").set("romio_cb_read", "enable")
                    .set("cb_nodes", "1").set("cb_buffer_size", "4096");
            File a = new File(w, dir.resolve("concurrent-a").toString(), MPIIO.MODE_RDWR | MPIIO.MODE_CREATE, hints);
            File b = new File(w, dir.resolve("concurrent-b").toString(), MPIIO.MODE_RDWR | MPIIO.MODE_CREATE, hints);
            // each rank owns its BLOCK of every np * BLOCK bytes: the ranks interleave, so two-phase aggregates
            FileType tile = Datatypes.vector(1, BLOCK, BLOCK).resized(0, (long) BLOCK * np);
            for (File f : new File[]{a, b}) f.setView((long) rank * BLOCK, FileType.bytes(1), tile, "native", null);
            int n = BLOCK * BLOCKS;
            for (int it = 0; it < repeats; it++) {
                byte[] wa = data('a', it, rank, n), wb = data('b', it, rank, n);
                long at = (long) it * n;
                // both writes in flight at once
                IoRequest ra = a.iWriteAtAll(at, wa, 0, n, MPI.BYTE);
                b.seek(at, MPIIO.SEEK_SET); // file b through its individual pointer, file a at explicit offsets
                IoRequest rb = b.iWriteAll(wb, 0, n, MPI.BYTE);
                expectEquals(n, ra.waitFor().getBytes(), "bytes written to a, round " + it);
                expectEquals(n, rb.waitFor().getBytes(), "bytes written to b, round " + it);
                // a read of one file against a write of the other, then both reads
                byte[] ga = new byte[n], gb = new byte[n];
                byte[] wb2 = data('B', it, rank, n);
                IoRequest r1 = a.iReadAtAll(at, ga, 0, n, MPI.BYTE);
                b.seek(at, MPIIO.SEEK_SET);
                IoRequest r2 = b.iWriteAll(wb2, 0, n, MPI.BYTE);
                r1.waitFor();
                r2.waitFor();
                same(wa, ga, "file a after round " + it);
                b.seek(at, MPIIO.SEEK_SET);
                IoRequest r3 = b.iReadAll(gb, 0, n, MPI.BYTE);
                byte[] ga2 = new byte[n];
                IoRequest r4 = a.iReadAtAll(at, ga2, 0, n, MPI.BYTE);
                r3.waitFor();
                r4.waitFor();
                same(wb2, gb, "file b after round " + it);
                same(wa, ga2, "file a read again in round " + it);
            }
            // the data went through the aggregator's windows, not the independent path
            expectEquals(3L * repeats, a.collectiveStatistics().twoPhaseCalls(), "two-phase calls on a");
            expectEquals(3L * repeats, b.collectiveStatistics().twoPhaseCalls(), "two-phase calls on b");
            a.close();
            b.close();
        });
        c.done();
        MPI.Finalize();
    }

    /** Bytes that name their file, round, rank and position, so a byte of the other file or round shows. */
    private static byte[] data(char file, int round, int rank, int n) {
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) out[i] = (byte) (file * 7 + round * 13 + rank * 29 + i * 31 + (i >>> 8));
        return out;
    }

    private static void same(byte[] want, byte[] got, String what) {
        for (int i = 0; i < want.length; i++) {
            if (want[i] != got[i]) throw new AssertionError(what + ": byte " + i + " is " + got[i] + ", expected " + want[i]);
        }
    }
}
