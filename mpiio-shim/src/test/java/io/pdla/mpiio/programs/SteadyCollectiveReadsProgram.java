package io.pdla.mpiio.programs;

import io.pdla.mpiio.ErrorClass;
import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.MPI;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * Steady collective reads that each rank serves itself skip their meetings (hint {@code pdla_lazy_coll_reads}, on by
 * default): every byte is right through runs, checks, a collective write and an interleaved (two-phase) call inside
 * a run; a storage failure or a bad argument on one rank in such a read raises on that rank alone, hangs nobody, and
 * the ranks stay in step for the calls after (which meet again, or skip, alike), nonblocking and split reads included;
 * with the hint off every call meets, and
 * one rank turning it off inside a run ends the runs for all at the next call that meets.
 * Arg: directory.
 */
public final class SteadyCollectiveReadsProgram {
    private static final int BLOCK = 16 << 10;

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path dir = Path.of(args[0]);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        Checks checks = new Checks();
        int calls = 200;
        String path = "failfs://" + dir.resolve("steady");
        checks.check("steady side-by-side reads skip their meetings, every byte right", () -> {
            File f = new File(MPI.COMM_WORLD, path, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR);
            writeBlocks(f, 0, calls + 40, rank, np, 0);
            byte[] got = new byte[BLOCK];
            for (int c = 0; c < calls; c++) readAndCheck(f, c, rank, np, got, 0);
            var s = f.collectiveStatistics();
            Checks.expect(s.independentCalls() == 2L * calls + 40 && s.twoPhaseCalls() == 0, "every write and read decided independent: " + s);
            // 4 met reads start the first run; after that one check per run of 8, 16, 32, 64, 64 reads
            Checks.expect(s.unmetCalls() >= calls - 12 && s.unmetCalls() < calls - 4, "reads that skipped their meetings: " + s);
            Checks.expect("true".equals(f.getInfo().asMap().get("pdla_lazy_coll_reads")), "getInfo reports the hint: " + f.getInfo().asMap());
            f.close();
        });
        checks.check("a collective write and an interleaved call inside a run", () -> {
            File f = new File(MPI.COMM_WORLD, "failfs://" + dir.resolve("steady-changed"), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR);
            writeBlocks(f, 0, 40, rank, np, 0);
            byte[] got = new byte[BLOCK];
            for (int c = 0; c < 20; c++) readAndCheck(f, c, rank, np, got, 0);
            long unmet = f.collectiveStatistics().unmetCalls();
            Checks.expect(unmet >= 8, "a run had started: " + f.collectiveStatistics());
            writeBlocks(f, 20, 30, rank, np, 7);   // every rank's next blocks, changed; the write meets and ends the run
            for (int c = 20; c < 30; c++) readAndCheck(f, c, rank, np, got, 7);
            Checks.expect(f.collectiveStatistics().unmetCalls() == unmet + 6, "after the write 4 reads met, 6 skipped: " + f.collectiveStatistics());
            for (int c = 30; c < 36; c++) readAndCheck(f, c, rank, np, got, 0);   // the end of that run, a check, the next run
            // requests that overlap the next rank's (interleaved: two-phase when it meets), read inside a run: right either way
            long at = 36L * np * BLOCK + (long) rank * 256;
            byte[] overlapping = new byte[1024];
            f.readAtAll(at, overlapping, 0, overlapping.length, MPI.BYTE);
            byte[] want = new byte[overlapping.length];
            for (int i = 0; i < want.length; i++) want[i] = Checks.valueAt(at + i);
            Checks.expectBytes(want, overlapping, "overlapping read on rank " + rank);
            for (int c = 37; c < 40; c++) readAndCheck(f, c, rank, np, got, 0);
            f.close();
        });
        checks.check("a failure or a bad argument on one rank in a skipped read stays its own", () -> {
            File f = new File(MPI.COMM_WORLD, path, MPIIO.MODE_RDONLY);
            byte[] got = new byte[BLOCK];
            for (int c = 0; c < 6; c++) readAndCheck(f, c, rank, np, got, 0);   // calls 4 and 5 are in the first run
            long unmet = f.collectiveStatistics().unmetCalls();
            Checks.expect(unmet == 2, "the first run had started: " + f.collectiveStatistics());
            FailingStorageDriver.failReads = rank == 1 % np;
            MPIIOException failed = null;
            try {
                readAndCheck(f, 6, rank, np, got, 0);
            } catch (MPIIOException e) {
                failed = e;
            } finally {
                FailingStorageDriver.failReads = false;
            }
            if (rank == 1 % np) {
                Checks.expect(failed != null && failed.errorClass() == ErrorClass.ERR_IO && failed.getMessage().contains("injected storage failure"),
                        "the failing rank raises its own ERR_IO: " + failed);
            } else {
                Checks.expect(failed == null, "the other ranks' reads succeed: " + failed);
            }
            MPIIOException bad = null;
            try {
                if (rank == 2 % np) f.readAtAll(-1, got, 0, BLOCK, MPI.BYTE);   // a bad offset: the call fails before it reaches storage
                else readAndCheck(f, 7, rank, np, got, 0);
            } catch (MPIIOException e) {
                bad = e;
            }
            Checks.expect(rank == 2 % np ? bad != null && bad.errorClass() == ErrorClass.ERR_ARG : bad == null,
                    "only the rank with the bad offset raises: " + bad);
            for (int c = 8; c < 40; c++) readAndCheck(f, c, rank, np, got, 0);   // still in step: runs, checks, no hang
            Checks.expect(f.collectiveStatistics().unmetCalls() >= unmet + 25, "the runs went on: " + f.collectiveStatistics());
            f.close();
        });
        checks.check("with pdla_lazy_coll_reads=false every read meets", () -> {
            File f = new File(MPI.COMM_WORLD, path, MPIIO.MODE_RDONLY, new Info(Map.of("pdla_lazy_coll_reads", "false")));
            byte[] got = new byte[BLOCK];
            for (int c = 0; c < 40; c++) readAndCheck(f, c, rank, np, got, 0);
            Checks.expect(f.collectiveStatistics().unmetCalls() == 0 && f.collectiveStatistics().agreedInCall() >= 38,
                    "no read skipped its meetings, they agreed in their all-gather: " + f.collectiveStatistics());
            f.close();
        });
        checks.check("nonblocking and split collective reads in runs; a failure in one stays its rank's", () -> {
            File f = new File(MPI.COMM_WORLD, path, MPIIO.MODE_RDONLY);
            byte[] got = new byte[BLOCK];
            for (int c = 0; c < 6; c++) readAndCheck(f, c, rank, np, got, 0);   // calls 4 and 5 are in the first run
            byte[][] bufs = new byte[3][BLOCK];
            for (int c = 6; c < 30; c += 3) {   // three in flight at a time, then a split one
                io.pdla.mpiio.IoRequest[] rs = new io.pdla.mpiio.IoRequest[2];
                for (int k = 0; k < 2; k++) rs[k] = f.iReadAtAll(((long) (c + k) * np + rank) * BLOCK, bufs[k], 0, BLOCK, MPI.BYTE);
                f.readAtAllBegin(((long) (c + 2) * np + rank) * BLOCK, bufs[2], 0, BLOCK, MPI.BYTE);
                f.readAtAllEnd(bufs[2]);
                for (int k = 0; k < 2; k++) rs[k].waitFor();
                for (int k = 0; k < 3; k++) Checks.expectBytes(expected(c + k, rank, np, 0), bufs[k], "call " + (c + k) + " on rank " + rank);
            }
            long unmet = f.collectiveStatistics().unmetCalls();
            Checks.expect(unmet >= 20, "nonblocking and split reads skipped their meetings too: " + f.collectiveStatistics());
            FailingStorageDriver.failReads = rank == 1 % np;
            MPIIOException failed = null;
            try {
                f.iReadAtAll(((long) 30 * np + rank) * BLOCK, got, 0, BLOCK, MPI.BYTE).waitFor();
            } catch (MPIIOException e) {
                failed = e;
            } finally {
                FailingStorageDriver.failReads = false;
            }
            Checks.expect(f.collectiveStatistics().unmetCalls() == unmet + 1, "the failing call was a skipped one: " + f.collectiveStatistics());
            Checks.expect(rank == 1 % np ? failed != null && failed.errorClass() == ErrorClass.ERR_IO : failed == null,
                    "only the failing rank's request fails: " + failed);
            if (failed == null) Checks.expectBytes(expected(30, rank, np, 0), got, "call 30 on rank " + rank);
            for (int c = 31; c < 40; c++) readAndCheck(f, c, rank, np, got, 0);
            f.close();
        });
        checks.check("one rank turning the hint off inside a run: the run ends for all at the next check", () -> {
            File f = new File(MPI.COMM_WORLD, path, MPIIO.MODE_RDONLY);
            byte[] got = new byte[BLOCK];
            for (int c = 0; c < 8; c++) readAndCheck(f, c, rank, np, got, 0);   // calls 4-7 skipped, 8-11 will be
            f.setInfo(rank == 0 ? new Info(Map.of("pdla_lazy_coll_reads", "false")) : new Info());   // hints may differ
            for (int c = 8; c < 12; c++) readAndCheck(f, c, rank, np, got, 0);
            long unmet = f.collectiveStatistics().unmetCalls();
            Checks.expect(unmet == 8, "the run went on to its end: " + f.collectiveStatistics());
            for (int c = 12; c < 40; c++) readAndCheck(f, c, rank, np, got, 0);
            Checks.expect(f.collectiveStatistics().unmetCalls() == unmet, "after the check every read met: " + f.collectiveStatistics());
            f.close();
        });
        checks.done();
        MPI.Finalize();
    }

    /** Collective writes of every rank's blocks of segments [from, to), values shifted by {@code shift}. */
    private static void writeBlocks(File f, int from, int to, int rank, int np, int shift) throws Exception {
        byte[] mine = new byte[BLOCK];
        for (int c = from; c < to; c++) {
            long at = ((long) c * np + rank) * BLOCK;
            for (int i = 0; i < BLOCK; i++) mine[i] = (byte) (Checks.valueAt(at + i) + shift);
            f.writeAtAll(at, mine, 0, BLOCK, MPI.BYTE);
        }
    }

    private static void readAndCheck(File f, int c, int rank, int np, byte[] got, int shift) throws Exception {
        Arrays.fill(got, (byte) 0);
        f.readAtAll(((long) c * np + rank) * BLOCK, got, 0, BLOCK, MPI.BYTE);
        Checks.expectBytes(expected(c, rank, np, shift), got, "call " + c + " on rank " + rank);
    }

    /** What rank {@code rank}'s block of segment {@code c} holds, its values shifted by {@code shift}. */
    private static byte[] expected(int c, int rank, int np, int shift) {
        long at = ((long) c * np + rank) * BLOCK;
        byte[] want = new byte[BLOCK];
        for (int i = 0; i < BLOCK; i++) want[i] = (byte) (Checks.valueAt(at + i) + shift);
        return want;
    }
}
