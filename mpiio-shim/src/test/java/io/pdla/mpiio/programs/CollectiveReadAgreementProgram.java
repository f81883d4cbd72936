package io.pdla.mpiio.programs;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.ErrorClass;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.MPI;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * Collective reads that each rank serves itself (IOR -c: each call's requests lie side by side, so ROMIO's automatic
 * rule reads independently) agree on their outcome in the call's own all-gather once the engine expects that decision:
 * every byte is right, including when a call in between needs two-phase (the early read is redone) and after it; a
 * storage failure on one rank's early read fails every rank's call with that rank's class, hangs nobody, and the next
 * calls work; a two-phase read agrees in its own last all-gather, a failure included, or in its data exchange when the
 * window is the store's mapping or the lone aggregator's read-ahead. Arg: directory.
 */
public final class CollectiveReadAgreementProgram {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path dir = Path.of(args[0]);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        Checks checks = new Checks();
        int block = 16 << 10, calls = 40;
        String path = "failfs://" + dir.resolve("side-by-side");
        checks.check("side-by-side collective reads agree in the call", () -> {
            // every call meets here (steady reads would skip their meetings: SteadyCollectiveReadsProgram)
            File f = new File(MPI.COMM_WORLD, path, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, new Info(java.util.Map.of("pdla_lazy_coll_reads", "false")));
            byte[] mine = new byte[block];
            for (int c = 0; c < calls; c++) {
                long at = ((long) c * np + rank) * block;
                for (int i = 0; i < block; i++) mine[i] = Checks.valueAt(at + i);
                f.writeAtAll(at, mine, 0, block, MPI.BYTE);
            }
            byte[] got = new byte[block];
            for (int c = 0; c < calls; c++) {
                if (c == calls / 2) interleavedCall(f, rank, np, block, calls);   // two-phase in between
                readAndCheck(f, c, rank, np, block, got);
            }
            long agreed = f.collectiveStatistics().agreedInCall();
            // the first read and the first one after the two-phase call expect the other decision; every other one agrees in the call
            Checks.expect(agreed >= calls - 3, "reads agreed in their own all-gather: " + agreed + " of " + calls + " (" + f.collectiveStatistics() + ")");
            f.close();
        });
        checks.check("a failed early read on rank 1 fails every rank with its class", () -> {
            File f = new File(MPI.COMM_WORLD, path, MPIIO.MODE_RDONLY);
            byte[] got = new byte[block];
            readAndCheck(f, 0, rank, np, block, got);
            readAndCheck(f, 1, rank, np, block, got);   // by now every rank reads before the all-gather
            long before = f.collectiveStatistics().agreedInCall();
            FailingStorageDriver.failReads = rank == 1;
            ErrorClass failed = null;
            String message = null;
            try {
                f.readAtAll(((long) 2 * np + rank) * block, got, 0, block, MPI.BYTE);
            } catch (MPIIOException e) {
                failed = e.errorClass();
                message = e.getMessage();
            } finally {
                FailingStorageDriver.failReads = false;
            }
            Checks.expect(failed == ErrorClass.ERR_IO, "every rank raises rank 1's class ERR_IO, this one got " + failed + ": " + message);
            Checks.expect(rank == 1 ? message.contains("injected storage failure") : message.contains("failed on rank 1"),
                    "rank 1 reports its own failure, the others name rank 1: " + message);
            Checks.expect(f.collectiveStatistics().agreedInCall() == before + 1, "the failed read agreed in its own all-gather");
            for (int c = 3; c < 8; c++) readAndCheck(f, c, rank, np, block, got);   // the handle goes on working
            f.close();
        });
        checks.check("a two-phase read failing on an aggregator fails every rank with its class, agreed in the read's last all-gather", () -> {
            File f = new File(MPI.COMM_WORLD, path, MPIIO.MODE_RDONLY, new Info(java.util.Map.of("romio_cb_read", "enable")));
            byte[] got = new byte[block];
            readAndCheck(f, 0, rank, np, block, got);
            long before = f.collectiveStatistics().agreedInCall();
            Checks.expect(f.collectiveStatistics().twoPhaseCalls() == 1 && before == 1,
                    "a two-phase read whose ranks may all fold agrees in its last all-gather: " + f.collectiveStatistics());
            FailingStorageDriver.failReads = true;   // every rank's storage reads fail: whichever ranks aggregate, the call fails
            ErrorClass failed = null;
            try {
                f.readAtAll(((long) np + rank) * block, got, 0, block, MPI.BYTE);
            } catch (MPIIOException e) {
                failed = e.errorClass();
            } finally {
                FailingStorageDriver.failReads = false;
            }
            Checks.expect(failed == ErrorClass.ERR_IO, "every rank raises the aggregators' class ERR_IO, this one got " + failed);
            Checks.expect(f.collectiveStatistics().agreedInCall() == before + 1, "the failed two-phase read agreed in its last all-gather");
            for (int c = 2; c < 5; c++) readAndCheck(f, c, rank, np, block, got);   // the handle goes on working
            f.close();
        });
        checks.check("two-phase reads from the store's mapping, and O_DIRECT reads from the aggregator's read-ahead, end at their exchange", () -> {
            String plain = dir.resolve("side-by-side").toUri().toString();
            for (String[] hint : new String[][]{{"romio_cb_read", "enable"}, {"posix_direct_io", "true"}}) {
                File f = new File(MPI.COMM_WORLD, plain, MPIIO.MODE_RDONLY, new Info(java.util.Map.of(hint[0], hint[1])));
                byte[] got = new byte[block];
                for (int c = 0; c < calls; c++) readAndCheck(f, c, rank, np, block, got);
                var s = f.collectiveStatistics();
                // each call's window is the mapping or what the lone aggregator read ahead: no meeting after the copies
                Checks.expect(s.twoPhaseCalls() == calls && s.lastMeetingsSaved() >= calls - 1 && s.agreedInCall() >= calls - 1,
                        hint[0] + ": two-phase reads ending at their exchange: " + s.lastMeetingsSaved() + " of " + calls + " (" + s + ")");
                f.close();
            }
        });
        checks.done();
        MPI.Finalize();
    }

    private static void readAndCheck(File f, int c, int rank, int np, int block, byte[] got) throws Exception {
        long at = ((long) c * np + rank) * block;
        Arrays.fill(got, (byte) 0);
        f.readAtAll(at, got, 0, block, MPI.BYTE);
        byte[] want = new byte[block];
        for (int i = 0; i < block; i++) want[i] = Checks.valueAt(at + i);
        Checks.expectBytes(want, got, "call " + c + " on rank " + rank);
    }

    /** One collective read whose requests interleave (every rank reads every rank's first blocks, 512 bytes apart): two-phase. */
    private static void interleavedCall(File f, int rank, int np, int block, int calls) throws Exception {
        f.setView((long) rank * 512, FileType.bytes(1), Datatypes.vector(1, 512, 512).resized(0, 512L * np), "native", new Info());
        byte[] got = new byte[4 * 512];
        f.readAtAll(0, got, 0, got.length, MPI.BYTE);
        byte[] want = new byte[got.length];
        for (int k = 0; k < 4; k++) {
            for (int i = 0; i < 512; i++) want[k * 512 + i] = Checks.valueAt((long) (k * np + rank) * 512 + i);
        }
        Checks.expectBytes(want, got, "interleaved call on rank " + rank);
        Checks.expect(f.collectiveStatistics().twoPhaseCalls() >= 1, "the interleaved call went through two-phase: " + f.collectiveStatistics());
        f.setView(0, FileType.bytes(1), FileType.bytes(1), "native", new Info());
    }
}
