package io.pdla.mpiio.programs;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.MPI;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Run with one delegate that stops answering after a first write+sync of every rank (PDLA_DELEGATE_FAIL_AFTER):
 * the synced bytes are on storage, and every rank's next call fails with an MPIIOException naming the delegate
 * within the time-out instead of hanging. Args: directory.
 */
public final class DelegateFaultProgram {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path file = Path.of(args[0]).resolve("fault");
        int rank = MPI.COMM_WORLD.Rank();
        Checks checks = new Checks();
        File f = new File(MPI.COMM_WORLD, file.toString(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, new Info());
        byte[] mine = new byte[100];
        for (int i = 0; i < mine.length; i++) mine[i] = Checks.valueAt(rank * 100L + i);
        checks.check("write and sync before the failure", () -> {
            f.writeAt(rank * 100L, mine, 0, mine.length, MPI.BYTE);
            f.sync();
        });
        MPI.COMM_WORLD.Barrier();
        checks.check("synced bytes are on storage", () -> {
            byte[] all = Files.readAllBytes(file);
            for (int i = 0; i < mine.length; i++) Checks.expect(all[rank * 100 + i] == mine[i], "byte " + (rank * 100 + i) + " not on storage");
        });
        MPI.COMM_WORLD.Barrier();
        checks.check("the next call fails with a clear MPIIOException", () -> {
            try {
                f.writeAt(rank * 100L, mine, 0, mine.length, MPI.BYTE);
                f.sync();
                throw new AssertionError("write and sync succeeded with a dead delegate");
            } catch (MPIIOException e) {
                Checks.expect(String.valueOf(e.getMessage()).contains("delegate 0"), "message does not name the delegate: " + e.getMessage());
                System.out.println("rank " + rank + " got: " + e.getMessage());
            }
        });
        // The delegates carry the application's bytes, so their failure at close is the close's (unlike tracing's or
        // replication's, which close only logs); the dead delegate is not waited for again.
        checks.check("close reports the dead delegate without waiting for it again", () -> {
            long t0 = System.nanoTime();
            try {
                f.close();
                throw new AssertionError("close succeeded although a delegate holding the file's pages is dead");
            } catch (MPIIOException e) {
                Checks.expect(String.valueOf(e.getMessage()).contains("delegate 0"), "close's error does not name the delegate: " + e.getMessage());
            }
            Checks.expect(System.nanoTime() - t0 < 2_000_000_000L, "close waited for the dead delegate again");
        });
        checks.done();
        MPI.Finalize();
    }
}
