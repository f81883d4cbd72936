package io.pdla.mpiio.programs;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.nio.file.Path;
import java.util.Map;

/**
 * IOR -c's shape (each call's 16 KiB requests side by side, which ROMIO's automatic rule leaves to each rank) on a
 * file opened with and without direct I/O: with it, the calls are gathered by two-phase (nothing else merges them);
 * without it, each rank does its own I/O as before. Every byte read back is checked in both. Arg: directory.
 */
public final class UncachedGatheringProgram {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path dir = Path.of(args[0]);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        Checks checks = new Checks();
        int block = 16 << 10, calls = 12;
        for (boolean direct : new boolean[]{true, false}) {
            String path = dir.resolve(direct ? "uncached" : "cached").toString();
            Info info = new Info(Map.of("posix_direct_io", Boolean.toString(direct)));
            checks.check((direct ? "uncached" : "cached") + " side-by-side collective calls", () -> {
                File f = new File(MPI.COMM_WORLD, path, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, info);
                byte[] mine = new byte[block];
                for (int c = 0; c < calls; c++) {
                    long at = ((long) c * np + rank) * block;
                    for (int i = 0; i < block; i++) mine[i] = Checks.valueAt(at + i);
                    f.writeAtAll(at, mine, 0, block, MPI.BYTE);
                }
                f.sync();
                long writesGathered = f.collectiveStatistics().twoPhaseCalls();
                byte[] got = new byte[block];
                for (int c = 0; c < calls; c++) {
                    long at = ((long) c * np + rank) * block;
                    java.util.Arrays.fill(got, (byte) 0);
                    f.readAtAll(at, got, 0, block, MPI.BYTE);
                    for (int i = 0; i < block; i++) mine[i] = Checks.valueAt(at + i);
                    Checks.expectBytes(mine, got, "call " + c + " on rank " + rank);
                }
                long all = f.collectiveStatistics().twoPhaseCalls();
                String stats = " (" + f.collectiveStatistics() + ")";
                if (direct && np > 1) {
                    Checks.expect(writesGathered == calls, "every uncached write gathered: " + writesGathered + stats);
                    Checks.expect(all == 2L * calls, "every uncached read gathered too: " + (all - writesGathered) + stats);
                } else {
                    Checks.expect(all == 0, "cached (or one rank): each rank its own I/O, as ROMIO's rule says: " + all + stats);
                }
                f.close();
            });
        }
        checks.done();
        MPI.Finalize();
    }
}
