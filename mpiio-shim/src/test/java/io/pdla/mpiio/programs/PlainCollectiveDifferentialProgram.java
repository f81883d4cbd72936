package io.pdla.mpiio.programs;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.IoStatus;
import io.pdla.mpiio.MPIIO;
import mpi.Datatype;
import mpi.MPI;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import static io.pdla.mpiio.programs.Checks.expect;
import static io.pdla.mpiio.programs.Checks.expectBytes;

/**
 * The everyday collective call's straight path against the general one: all ranks open two shared files on
 * COMM_WORLD, one with a bare chain (a rank's byte-array collective calls may go straight to the engine) and one with
 * hint {@code pdla_straight_calls=false} (every call the general way), and make the same random sequence of
 * collective calls on both; each rank checks that every call ends alike on the two: bytes and count moved, the bytes
 * a read brought, the individual pointer, the error class of a failing call. The ranks' calls differ within a call
 * (datatypes, counts, offsets, buffer offsets, invalid arguments that make a rank veto), so straight and general ranks
 * meet in one call; requests overlap for reads (two-phase by ROMIO's rule) and stay in each rank's own blocks for
 * writes, so the files' bytes are defined. Reopens draw {@code romio_cb_read}/{@code romio_cb_write} and O_DIRECT;
 * views are plain runs at a displacement or non-contiguous (then reads only); atomic mode comes and goes. At the end
 * the two files hold the same bytes. Arguments: a directory, a seed, a number of calls, and "posix" or "failfs"
 * (the counting test driver: the straight file must have seen array requests, the general one none).
 */
public final class PlainCollectiveDifferentialProgram {
    private static final int BLOCK = 4096, BLOCKS_PER_RANK = 16;

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path dir = Path.of(args[0]);
        long seed = Long.parseLong(args[1]);
        int calls = Integer.parseInt(args[2]);
        boolean counted = args[3].equals("failfs");
        Checks c = new Checks();
        int rank = c.rank(), np = MPI.COMM_WORLD.Size();
        c.check("straight and general collective calls end alike (seed " + seed + ")", () -> {
            Random shared = new Random(seed);                 // the same on every rank: what kind of call comes next
            Random mine = new Random(seed * 31 + rank + 1);   // this rank's arguments
            Path plainPath = dir.resolve("coll-plain"), generalPath = dir.resolve("coll-general");
            String scheme = counted ? "failfs://" : "";
            long fileBytes = (long) np * BLOCKS_PER_RANK * BLOCK;
            Datatype[] types = {MPI.BYTE, MPI.BYTE, MPI.BYTE, Datatype.Contiguous(4, MPI.BYTE), Datatype.Vector(2, 3, 5, MPI.BYTE), MPI.INT};
            int[] itemBytes = {1, 1, 1, 4, 6, 4};   // file bytes per item: a write stays in this rank's half block
            Twins files = Twins.open(scheme + plainPath, scheme + generalPath, new Info(), MPIIO.MODE_RDWR | MPIIO.MODE_CREATE);
            byte[] mineFill = new byte[BLOCK];
            for (int b = 0; b < BLOCKS_PER_RANK; b++) {
                mine.nextBytes(mineFill);
                long off = ownBlock(b, rank, np);
                files.same("fill block " + b, h -> "ok " + h.writeAt(off, mineFill, 0, BLOCK, MPI.BYTE).getBytes());
            }
            MPI.COMM_WORLD.Barrier();
            long disp = 0;
            boolean plainView = true;
            long arrayCallsBefore = FailingStorageDriver.ARRAY_CALLS.get();
            int answered = 0;
            for (int i = 0; i < calls; i++) {
                int kind = shared.nextInt(100);
                String step = "call " + i;
                if (kind < 2) {
                    files.close();
                    Info hints = new Info();
                    String[] modes = {"automatic", "automatic", "enable", "disable"};
                    hints.set("romio_cb_read", modes[shared.nextInt(modes.length)]).set("romio_cb_write", modes[shared.nextInt(modes.length)]);
                    if (shared.nextInt(3) == 0) hints.set("posix_direct_io", "true");
                    if (shared.nextBoolean()) hints.set("cb_buffer_size", Integer.toString(1 << (12 + shared.nextInt(8))));
                    files = Twins.open(scheme + plainPath, scheme + generalPath, hints, MPIIO.MODE_RDWR);
                    disp = 0;
                    plainView = true;
                    continue;
                }
                if (kind < 8) {
                    plainView = shared.nextInt(3) != 0;
                    disp = shared.nextInt(4) == 0 ? 0 : shared.nextInt(3 * BLOCK);
                    long d = disp;
                    boolean p = plainView;
                    files.same(step + " setView disp " + d + (p ? " plain" : " vector"), h -> {
                        h.setView(d, MPI.BYTE, p ? MPI.BYTE : Datatype.Vector(4, 2, 3, MPI.BYTE), "native", null);
                        return "ok at " + h.getPosition();
                    });
                    continue;
                }
                if (kind < 11) {
                    boolean atomic = shared.nextInt(3) == 0;
                    files.same(step + " setAtomicity " + atomic, h -> {
                        h.setAtomicity(atomic);
                        return "ok";
                    });
                    continue;
                }
                boolean write = plainView && shared.nextBoolean(), explicit = shared.nextBoolean();
                int typeIndex = mine.nextInt(types.length);
                Datatype type = types[typeIndex];
                boolean ints = type == MPI.INT;
                int length = 1 + mine.nextInt(BLOCK);
                int count = mine.nextInt(40) == 0 ? -1 : mine.nextInt(length + 1) / (ints ? 4 : 1) / (type == MPI.BYTE ? 1 : 4);
                int bufOffset = mine.nextInt(40) == 0 ? length + 1 : mine.nextInt(Math.max(1, length / 8));
                long position;
                if (write) {
                    // within one of this rank's own blocks, so the ranks' writes never overlap; view position = file offset - disp
                    long at = ownBlock(mine.nextInt(BLOCKS_PER_RANK), rank, np) + mine.nextInt(BLOCK / 2);
                    count = Math.min(count, (BLOCK / 2) / itemBytes[typeIndex]);
                    position = Math.max(0, at - disp);
                    if (at < disp) count = 0; // this rank's block lies before the view: it joins with nothing
                } else {
                    position = mine.nextInt((int) fileBytes + BLOCK); // some past the end
                }
                long own = position;
                if (mine.nextInt(40) == 0) position = -1;
                long pos = position;
                if (!explicit) {
                    // the individual pointer: each rank seeks (independently) to its position first; a writer to its own
                    // blocks even when the explicit offset would have been the invalid -1 (its bytes must stay its own)
                    long seekTo = write ? own : Math.max(0, pos);
                    files.same(step + " seek " + seekTo, h -> {
                        h.seek(seekTo, MPIIO.SEEK_SET);
                        return "ok at " + h.getPosition();
                    });
                }
                byte[] data = new byte[length];
                mine.nextBytes(data);
                int[] intData = new int[length];
                for (int k = 0; k < length; k++) intData[k] = mine.nextInt();
                int n = count;
                String what = step + (write ? " write" : " read") + "All" + (explicit ? "At " + pos : "") + " count " + n + " bufOffset "
                        + bufOffset + " of " + length + (ints ? " ints" : " bytes") + " type " + itemBytes[typeIndex] + "B";
                String outcome = files.same(what, h -> {
                    Object buf = ints ? intData.clone() : data.clone();
                    IoStatus s;
                    if (write) s = explicit ? h.writeAtAll(pos, buf, bufOffset, n, type) : h.writeAll(buf, bufOffset, n, type);
                    else s = explicit ? h.readAtAll(pos, buf, bufOffset, n, type) : h.readAll(buf, bufOffset, n, type);
                    String contents = ints ? Arrays.toString((int[]) buf) : Arrays.toString((byte[]) buf);
                    return "ok bytes " + s.getBytes() + " count " + s.getCount() + " pointer " + h.getPosition()
                            + (write ? "" : " buffer " + contents.hashCode() + "/" + contents.length());
                });
                if (outcome.startsWith("ok bytes") && !outcome.startsWith("ok bytes 0 ")) answered++;
            }
            long straightCalls = FailingStorageDriver.ARRAY_CALLS.get() - arrayCallsBefore;
            files.close();
            MPI.COMM_WORLD.Barrier();
            if (rank == 0 && !counted) {
                expectBytes(Files.readAllBytes(generalPath), Files.readAllBytes(plainPath), "the straight file and the general one at the end");
            }
            System.out.println("COLLECTIVE CALLS " + rank + " " + answered + " moved bytes of " + calls + ", " + straightCalls + " array requests");
            if (counted) expect(straightCalls >= answered / 10 && straightCalls > 10, straightCalls + " array requests for " + answered
                    + " collective calls that moved bytes: the straight collective path is not being taken");
        });
        c.done();
        MPI.Finalize();
    }

    /** File offset of rank {@code rank}'s block {@code b}: the ranks' blocks alternate, as IOR's strided layout. */
    private static long ownBlock(int b, int rank, int np) {
        return ((long) b * np + rank) * BLOCK;
    }

    /** The same collective calls on the straight file and the general one. */
    private static final class Twins {
        final File plain, general;
        boolean closed;

        private Twins(File plain, File general) {
            this.plain = plain;
            this.general = general;
        }

        static Twins open(String plainName, String generalName, Info hints, int amode) throws Exception {
            Info forced = hints.dup().set("pdla_straight_calls", "false");
            return new Twins(new File(MPI.COMM_WORLD, plainName, amode, hints), new File(MPI.COMM_WORLD, generalName, amode, forced));
        }

        /** Runs the call on both (the straight file first, the general one after: every rank in the same order); its outcome. */
        String same(String what, CallOutcome.Call call) {
            long before = FailingStorageDriver.ARRAY_CALLS.get();
            String a = CallOutcome.of(plain, call);
            long between = FailingStorageDriver.ARRAY_CALLS.get();
            String b = CallOutcome.of(general, call);
            expect(FailingStorageDriver.ARRAY_CALLS.get() == between, what + ": the general path made an array request of the store");
            expect(a.equals(b), what + ": straight " + a + ", general " + b);
            if (between < before) throw new AssertionError("array requests went down");
            return a;
        }

        void close() throws Exception {
            if (closed) return;
            closed = true;
            plain.close();
            general.close();
        }
    }
}
