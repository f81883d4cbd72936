package io.pdla.mpiio.programs;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.IoRequest;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/**
 * A rank's own nonblocking write, completed before its next collective read, must be seen by that read (found by the
 * session-21 review). The last rank starts MPI_File_iwrite_at of 16 MiB beyond the stream of gathered O_DIRECT reads:
 * the write counts as a change when it starts on the handle's pool thread, before its bytes reach the file, so a
 * collective read that meets meanwhile, reading ahead (and in the background) over those bytes, must not serve them
 * after the write completed. The rank joins two collective reads that do not touch the write, waits for it, and reads
 * its own blocks of it collectively. Arg: directory (must support O_DIRECT).
 */
public final class ReadAheadIwriteProgram {
    private static final int BLOCK = 16 << 10, LEN = 16 << 20, N = 6;

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path path = Path.of(args[0]).resolve("read-ahead-iwrite");
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        long r0 = at(N + 2, 0, np);
        long size = r0 + LEN + (1 << 20);
        if (rank == 0) {
            byte[] all = new byte[(int) size];
            for (int i = 0; i < all.length; i++) all[i] = Checks.valueAt(i);
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(ByteBuffer.wrap(all), 0);
                ch.force(true);
            }
        }
        MPI.COMM_WORLD.Barrier();
        Checks checks = new Checks();
        checks.check("a rank's own completed iwrite is seen by its next collective read", () -> {
            File f = new File(MPI.COMM_WORLD, path.toString(), MPIIO.MODE_RDWR, new Info(Map.of("posix_direct_io", "true")));
            byte[] got = new byte[BLOCK];
            for (int c = 0; c < N; c++) f.readAtAll(at(c, rank, np), got, 0, BLOCK, MPI.BYTE);
            int writer = np - 1;
            byte[] big = null;
            IoRequest req = null;
            if (rank == writer) {
                big = new byte[LEN];
                for (int i = 0; i < LEN; i++) big[i] = (byte) (Checks.valueAt(r0 + i) ^ 0x5A);
                req = f.iWriteAt(r0, big, 0, LEN, MPI.BYTE);   // [r0, r0 + 16 MiB): calls N + 2 on, nobody reads it yet
                Thread.sleep(2);   // the request has started on the pool thread (and counted its change)
            }
            f.readAtAll(at(N, rank, np), got, 0, BLOCK, MPI.BYTE);       // does not touch the write's bytes
            f.readAtAll(at(N + 1, rank, np), got, 0, BLOCK, MPI.BYTE);   // nor does this one
            if (rank == writer) req.waitFor();                            // the write is complete
            StringBuilder stale = new StringBuilder();
            for (int c = N + 2; c <= N + 8; c++) {
                java.util.Arrays.fill(got, (byte) 0);
                f.readAtAll(at(c, rank, np), got, 0, BLOCK, MPI.BYTE);
                if (rank == writer && got[0] != big[(int) (at(c, rank, np) - r0)]) stale.append(" ").append(c);
            }
            String stats = String.valueOf(f.collectiveStatistics());
            long[] mine = {f.collectiveStatistics().backgroundWindows()};
            long[] all = new long[1];
            MPI.COMM_WORLD.Allreduce(mine, 0, all, 0, 1, MPI.LONG, MPI.SUM);
            f.close();   // before any assertion: a rank that left would leave the others waiting in close
            if (rank == 0) System.out.println("rank 0 (aggregator): " + stats);
            Checks.expect(stale.length() == 0, "rank " + rank + " read stale bytes of its own completed iwrite at calls" + stale
                    + "; windows taken from background reads, all ranks: " + all[0]);
        });
        checks.done();
        MPI.Finalize();
    }

    private static long at(int call, int rank, int np) {
        return ((long) call * np + rank) * BLOCK;
    }
}
