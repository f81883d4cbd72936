package io.pdla.mpiio.programs;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.MPI;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The idle delegate path costs the delegates nothing: run with a delegate that is dead from the start
 * (PDLA_DELEGATE_FAIL_AFTER=0) and a short time-out. A read-only open, large reads (straight to storage), sync and close,
 * twice, succeed on every rank without waiting for the delegate (a single request to it would wait for the
 * whole time-out); then the first call that needs the delegate, a small read, fails with an MPIIOException
 * naming it on every rank. Args: directory, time-out in ms.
 */
public final class DelegateIdleProgram {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path file = Path.of(args[0]).resolve("idle");
        long timeoutMillis = Long.parseLong(args[1]);
        int rank = MPI.COMM_WORLD.Rank();
        Checks checks = new Checks();
        int large = 256 * 1024;
        byte[] content = new byte[4 * large];
        for (int i = 0; i < content.length; i++) content[i] = Checks.valueAt(i);
        if (rank == 0) Files.write(file, content);   // written outside MPI-IO: no direct write to tell the delegate of
        MPI.COMM_WORLD.Barrier();
        Info hints = new Info();
        hints.set("pdla_delegate_page_size", "4096");
        checks.check("open, large reads, sync and close never wait for a delegate", () -> {
            long t0 = System.nanoTime();
            for (int round = 0; round < 2; round++) {
                File f = new File(MPI.COMM_WORLD, file.toString(), MPIIO.MODE_RDONLY, hints);
                byte[] got = new byte[large];
                for (int k = 0; k < 4; k++) {
                    int at = ((rank + k) % 4) * large;
                    Checks.expectEquals(large, f.readAt(at, got, 0, large, MPI.BYTE).getBytes(), "bytes read at " + at);
                    Checks.expectBytes(java.util.Arrays.copyOfRange(content, at, at + large), got, "read at " + at);
                }
                f.sync();
                f.close();
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            Checks.expect(ms < timeoutMillis, "took " + ms + " ms: something waited for the dead delegate");
        });
        MPI.COMM_WORLD.Barrier();
        checks.check("the first call that needs the delegate fails with a clear MPIIOException", () -> {
            File f = new File(MPI.COMM_WORLD, file.toString(), MPIIO.MODE_RDONLY, hints);
            try {
                f.readAt(rank * 10L, new byte[10], 0, 10, MPI.BYTE);
                throw new AssertionError("a small read succeeded with a dead delegate");
            } catch (MPIIOException e) {
                Checks.expect(String.valueOf(e.getMessage()).contains("delegate 0"), "message does not name the delegate: " + e.getMessage());
            }
            f.close();
        });
        checks.done();
        MPI.Finalize();
    }
}
