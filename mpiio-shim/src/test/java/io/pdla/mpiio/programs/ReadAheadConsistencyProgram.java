package io.pdla.mpiio.programs;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.IoStatus;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/**
 * IOR -c's stream of side-by-side 16 KiB collective reads on an O_DIRECT file, which the aggregator serves from what
 * it read ahead (doubling from one call's window: calls 0, 1-2, 3-6, 7-14, 15-30, 31-62 are each one read, from
 * 3-6 on in the background while the calls before are served), with the file changed under the held data and under
 * the stretch being read in the background in every way a rank can: an independent write by one rank (which that
 * rank reads back without a sync), a write outside pdla followed by MPI_File_sync, a collective write, and set_size
 * below the held data; the file is closed with a background read running. Every byte of every call is checked; no
 * read may return what the file held before a change.
 * Arg: directory (must support O_DIRECT).
 */
public final class ReadAheadConsistencyProgram {
    private static final int BLOCK = 16 << 10, CALLS = 64;

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path path = Path.of(args[0]).resolve("read-ahead");
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        Checks checks = new Checks();
        checks.check("side-by-side reads served from read-ahead, changes never hidden", () -> {
            byte[][] expected = new byte[CALLS][];
            File f = new File(MPI.COMM_WORLD, path.toString(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, new Info(Map.of("posix_direct_io", "true")));
            for (int c = 0; c < CALLS; c++) {
                expected[c] = new byte[BLOCK];
                for (int i = 0; i < BLOCK; i++) expected[c][i] = Checks.valueAt(at(c, rank, np) + i);
                f.writeAtAll(at(c, rank, np), expected[c], 0, BLOCK, MPI.BYTE);
            }
            f.sync();
            readAndCheck(f, 0, 9, expected, rank, np, BLOCK);    // the aggregator now holds calls 7-14 and reads 15-30
            long background = sum(f.collectiveStatistics().backgroundReads());
            // calls 3-6 and 7-14 were read in the background; 15-30 may still be running, so is not counted yet
            if (np > 1) Checks.expect(background >= 2, "calls 3-14 came from background reads: " + background + " (" + f.collectiveStatistics() + ")");

            // one rank's independent writes into held data and into the stretch read in the background: that rank reads
            // them back, no sync needed for its own writes
            int writer = np - 1;
            if (rank == writer) {
                changed(expected[10], 0x5A);
                f.writeAt(at(10, rank, np), expected[10], 0, BLOCK, MPI.BYTE);
                changed(expected[16], 0x1C);
                f.writeAt(at(16, rank, np), expected[16], 0, BLOCK, MPI.BYTE);
            }
            readAndCheck(f, 9, 17, expected, rank, np, BLOCK);   // now calls 15-30 are held

            // a write outside pdla (another process would do the same), made visible by MPI_File_sync as MPI requires
            int owner = np > 1 ? 1 : 0;
            byte[] outside = expected[20].clone();
            changed(outside, 0x33);
            if (rank == 0) {
                byte[] theirs = new byte[BLOCK];
                for (int i = 0; i < BLOCK; i++) theirs[i] = (byte) (Checks.valueAt(at(20, owner, np) + i) ^ 0x33);
                try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
                    ch.write(ByteBuffer.wrap(theirs), at(20, owner, np));
                    ch.force(false);
                }
            }
            if (rank == owner) expected[20] = outside;
            f.sync();
            readAndCheck(f, 17, 33, expected, rank, np, BLOCK);  // now calls 31-62 are held

            // a collective write into held data
            changed(expected[40], 0x77);
            f.writeAtAll(at(40, rank, np), expected[40], 0, BLOCK, MPI.BYTE);
            readAndCheck(f, 33, 44, expected, rank, np, BLOCK);

            // set_size below held data: the last rank's block of call 44 is cut in half, calls after it are gone
            long end = at(44, np - 1, np) + BLOCK / 2;
            f.setSize(end);
            readAndCheckAfterSize(f, 44, 47, expected, rank, np, end);
            long held = sum(f.collectiveStatistics().readAheadWindows());
            long taken = sum(f.collectiveStatistics().backgroundWindows());
            // 47 gathered reads; each change restarts the doubling from one call's window, so about half come from memory
            int reads = 9 + 8 + 16 + 11 + 3;
            if (np > 1) {
                Checks.expect(2 * held >= reads, "at least half of " + reads + " windows came from read-ahead: " + held + " (" + f.collectiveStatistics() + ")");
                Checks.expect(taken >= 4, "background reads were taken after every restart of the stream: " + taken + " (" + f.collectiveStatistics() + ")");
            } else {
                Checks.expect(held == 0 && taken == 0, "one rank gathers nothing, so reads nothing ahead: " + held + ", " + taken);
            }
            // the read of calls 0-2 starts a stream again, whose next stretch is read in the background: the close waits for it
            readAndCheckAfterSize(f, 0, 3, expected, rank, np, end);
            f.close();
        });
        checks.done();
        MPI.Finalize();
    }

    private static long sum(long mine) throws Exception {
        long[] all = new long[1];
        MPI.COMM_WORLD.Allreduce(new long[]{mine}, 0, all, 0, 1, MPI.LONG, MPI.SUM);
        return all[0];
    }

    private static void readAndCheckAfterSize(File f, int from, int to, byte[][] expected, int rank, int np, long end) throws Exception {
        for (int c = from; c < to; c++) {
            byte[] got = new byte[BLOCK];
            IoStatus s = f.readAtAll(at(c, rank, np), got, 0, BLOCK, MPI.BYTE);
            long want = Math.max(0, Math.min(BLOCK, end - at(c, rank, np)));
            Checks.expectEquals(want, s.getBytes(), "bytes read at call " + c + " after set_size to " + end + " on rank " + rank);
            for (int i = 0; i < want; i++) {
                if (got[i] != expected[c][i]) throw new AssertionError("call " + c + " byte " + i + " on rank " + rank + " after set_size");
            }
        }
    }

    private static long at(int call, int rank, int np) {
        return ((long) call * np + rank) * BLOCK;
    }

    private static void changed(byte[] block, int xor) {
        for (int i = 0; i < block.length; i++) block[i] ^= (byte) xor;
    }

    private static void readAndCheck(File f, int from, int to, byte[][] expected, int rank, int np, int block) throws Exception {
        byte[] got = new byte[block];
        for (int c = from; c < to; c++) {
            java.util.Arrays.fill(got, (byte) 0);
            IoStatus s = f.readAtAll(at(c, rank, np), got, 0, block, MPI.BYTE);
            Checks.expectEquals(block, s.getBytes(), "bytes read at call " + c + " on rank " + rank);
            Checks.expectBytes(expected[c], got, "call " + c + " on rank " + rank);
        }
    }
}
