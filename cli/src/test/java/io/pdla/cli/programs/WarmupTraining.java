package io.pdla.cli.programs;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

/**
 * The calls whose classes {@code RankWarmup} loads at a rank's start: a writable open, independent and nonblocking
 * writes and reads, a strided view with collective writes and reads, sync and close; then a read-only open with
 * small and large independent reads (the large ones come from a mapping) and a collective read. Prints
 * "WARM rank R ok" when every byte read back was the one written.
 */
public final class WarmupTraining {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        String path = args[0];
        int block = 16 << 10, rounds = 20;
        byte[] mine = new byte[block * rounds];
        for (int i = 0; i < mine.length; i++) mine[i] = (byte) (rank * 31 + i);
        File f = new File(MPI.COMM_WORLD, path, MPIIO.MODE_RDWR | MPIIO.MODE_CREATE);
        long at = (long) rank * block;
        f.writeAt(at, mine, 0, block, MPI.BYTE);
        f.iWriteAt(at, mine, 0, block, MPI.BYTE).waitFor();
        byte[] back = new byte[mine.length];
        f.readAt(at, back, 0, block, MPI.BYTE);
        boolean ok = same(mine, back, block);
        FileType stripe = Datatypes.vector(1, block, block).resized(0, (long) block * np);
        f.setView(at, FileType.bytes(1), stripe, "native", new Info());
        f.writeAll(mine, 0, mine.length, MPI.BYTE);
        f.sync();
        f.seek(0, MPIIO.SEEK_SET);
        f.readAll(back, 0, back.length, MPI.BYTE);
        ok &= same(mine, back, back.length);
        f.close();

        File r = new File(MPI.COMM_WORLD, path, MPIIO.MODE_RDONLY);
        byte[] big = new byte[block * np * rounds];
        r.readAt(0, big, 0, big.length, MPI.BYTE);               // one large read: the mapped path
        for (int s = 0; s < rounds; s++) {
            r.readAt(((long) s * np + rank) * block, back, s * block, block, MPI.BYTE);
        }
        ok &= same(mine, back, back.length);
        r.setView(at, FileType.bytes(1), stripe, "native", new Info());
        r.readAll(back, 0, back.length, MPI.BYTE);
        ok &= same(mine, back, back.length);
        r.close();
        MPI.COMM_WORLD.Barrier();
        if (rank == 0) File.delete(path);
        System.out.println("WARM rank " + rank + (ok ? " ok" : " MISMATCH"));
        MPI.Finalize();
    }

    private static boolean same(byte[] a, byte[] b, int n) {
        for (int i = 0; i < n; i++) if (a[i] != b[i]) return false;
        return true;
    }
}
