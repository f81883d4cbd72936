package io.pdla.mpiio.programs;

import io.pdla.mpiio.Datarep;
import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.ErrorClass;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileErrhandler;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.IoRequest;
import io.pdla.mpiio.IoStatus;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import static io.pdla.mpiio.programs.Checks.expect;
import static io.pdla.mpiio.programs.Checks.expectBytes;
import static io.pdla.mpiio.programs.Checks.expectEquals;
import static io.pdla.mpiio.programs.Checks.valueAt;

/**
 * The calls issue 14 added, on any number of ranks: nonblocking individual, shared and collective calls,
 * split collectives, error handlers and codes, datareps, getTypeExtent, darray/hindexedBlock, memory types,
 * preallocate. Argument: a directory for the files.
 */
public final class MpiioCallsProgram {
    private static final int RW = MPIIO.MODE_RDWR | MPIIO.MODE_CREATE;

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path dir = Path.of(args[0]);
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.Rank(), np = w.Size();
        Checks c = new Checks();
        int block = 4096;

        c.check("iWriteAtAll returns before the collective can complete; iReadAtAll reads it back", () -> {
            File fh = new File(w, dir.resolve("nbcoll").toString(), RW);
            byte[] mine = expected(rank * (long) block, block);
            w.Barrier();
            // the last rank joins late: the others' calls must return at once, their requests stay pending
            if (rank == np - 1 && np > 1) Thread.sleep(800);
            long t0 = System.nanoTime();
            IoRequest r = fh.iWriteAtAll(rank * (long) block, mine, 0, block, MPI.BYTE);
            long callMillis = (System.nanoTime() - t0) / 1_000_000;
            if (rank != np - 1) {
                expect(callMillis < 400, "iWriteAtAll blocked " + callMillis + " ms at the call");
                expect(!r.test() || np == 1, "request complete before the last rank joined");
            }
            expectEquals(block, r.waitFor().getCount(), "bytes written");
            byte[] back = new byte[block];
            int other = (rank + 1) % np;
            IoRequest rr = fh.iReadAtAll(other * (long) block, back, 0, block, MPI.BYTE);
            expectEquals(block, rr.waitFor().getBytes(), "bytes read");
            expectBytes(expected(other * (long) block, block), back, "block of rank " + other);
            fh.close();
        });

        c.check("several outstanding iWriteAll/iReadAll on the individual pointer complete in call order", () -> {
            File fh = new File(w, dir.resolve("nbcoll-ptr").toString(), RW);
            // each rank's view: its own 1 KiB of every np KiB
            fh.setView(rank * 1024L, FileType.bytes(1), Datatypes.vector(1, 1024, 1024).resized(0, 1024L * np), "native", null);
            IoRequest[] rs = new IoRequest[4];
            byte[][] parts = new byte[4][];
            for (int k = 0; k < 4; k++) {
                parts[k] = expected(k * 10_000L + rank, 1024);
                rs[k] = fh.iWriteAll(parts[k], 0, 1024, MPI.BYTE);
            }
            expectEquals(4 * 1024, fh.getPosition(), "individual pointer moved at the calls");
            IoRequest.waitAll(rs);
            fh.seek(0, MPIIO.SEEK_SET);
            byte[][] back = new byte[4][1024];
            for (int k = 0; k < 4; k++) rs[k] = fh.iReadAll(back[k], 0, 1024, MPI.BYTE);
            int first = IoRequest.waitAny(rs);
            expect(first >= 0 && first < 4, "waitAny index " + first);
            IoRequest.waitAll(rs);
            for (int k = 0; k < 4; k++) expectBytes(parts[k], back[k], "part " + k);
            fh.close();
            if (rank == 0) {
                byte[] all = Files.readAllBytes(dir.resolve("nbcoll-ptr"));
                expectEquals(4L * 1024 * np, all.length, "file size");
            }
        });

        c.check("a nonblocking collective failing on one rank fails on every rank with the same class", () -> {
            File fh = new File(w, dir.resolve("nbcoll-err").toString(), RW);
            AtomicReference<MPIIOException> handled = new AtomicReference<>();
            fh.setErrhandler((f, e) -> handled.set(e));
            byte[] buf = new byte[16];
            int count = rank == np - 1 ? 64 : 16; // the last rank's count overruns its buffer
            IoRequest r = fh.iWriteAtAll(rank * 16L, buf, 0, count, MPI.BYTE);
            try {
                r.waitFor();
                throw new AssertionError("request succeeded");
            } catch (MPIIOException e) {
                expect(e.errorClass() == ErrorClass.ERR_ARG, "class " + e.errorClass());
                expect(handled.get() == e, "the file's error handler saw the request's error at the wait");
            }
            fh.setErrhandler(FileErrhandler.ERRORS_RETURN);
            expectEquals(0, fh.getSize(), "nobody wrote");
            fh.close();
        });

        c.check("an error of a request nobody waited for is raised by close", () -> {
            File fh = new File(w, dir.resolve("nbcoll-unwaited").toString(), RW);
            byte[] buf = new byte[16];
            fh.iWriteAtAll(rank * 16L, buf, 0, rank == 0 ? 99 : 16, MPI.BYTE); // never waited for
            try {
                fh.close();
                throw new AssertionError("close succeeded");
            } catch (MPIIOException e) {
                expect(e.errorClass() == ErrorClass.ERR_ARG, "class " + e.errorClass() + ": " + e.getMessage());
            }
        });

        c.check("iWriteShared/iReadShared: each rank's block lands whole, the shared pointer moves at the call", () -> {
            File fh = new File(w, dir.resolve("nbshared").toString(), RW);
            byte[] mine = new byte[block];
            java.util.Arrays.fill(mine, (byte) (rank + 1));
            IoRequest r = fh.iWriteShared(mine, 0, block, MPI.BYTE);
            r.waitFor();
            w.Barrier();
            expectEquals((long) np * block, fh.getPositionShared(), "shared pointer");
            expectEquals((long) np * block, fh.getSize(), "size");
            fh.seekShared(0, MPIIO.SEEK_SET);
            byte[] back = new byte[block];
            fh.iReadShared(back, 0, block, MPI.BYTE).waitFor();
            for (int i = 1; i < block; i++) expect(back[i] == back[0] && back[0] >= 1 && back[0] <= np, "block mixed at " + i);
            fh.close();
        });

        c.check("split collectives: writeAtAll/readAtAll and ordered begin/end; one at a time per handle", () -> {
            File fh = new File(w, dir.resolve("split").toString(), RW);
            byte[] mine = expected(rank * (long) block, block);
            fh.writeAtAllBegin(rank * (long) block, mine, 0, block, MPI.BYTE);
            try {
                fh.writeOrderedBegin(mine, 0, block, MPI.BYTE);
                throw new AssertionError("second split collective accepted");
            } catch (MPIIOException e) {
                expect(e.errorClass() == ErrorClass.ERR_IO, "class " + e.errorClass());
            }
            expectEquals(block, fh.writeAtAllEnd(mine).getBytes(), "bytes");
            try {
                fh.readAllEnd(mine);
                throw new AssertionError("end without begin accepted");
            } catch (MPIIOException e) {
                expect(e.errorClass() == ErrorClass.ERR_IO, "class " + e.errorClass());
            }
            byte[] back = new byte[block];
            fh.readAtAllBegin(((rank + 1) % np) * (long) block, back, 0, block, MPI.BYTE);
            fh.readAtAllEnd(back);
            expectBytes(expected(((rank + 1) % np) * (long) block, block), back, "read back");
            // ordered: rank order from the shared pointer
            fh.seekShared(0, MPIIO.SEEK_END);
            fh.writeOrderedBegin(mine, 0, 100, MPI.BYTE);
            fh.writeOrderedEnd(mine);
            fh.seekShared((long) np * block, MPIIO.SEEK_SET);
            byte[] ordered = new byte[100];
            fh.readOrderedBegin(ordered, 0, 100, MPI.BYTE);
            expectEquals(100, fh.readOrderedEnd(ordered).getBytes(), "ordered bytes");
            expectBytes(java.util.Arrays.copyOf(mine, 100), ordered, "ordered block of this rank");
            fh.close();
        });

        c.check("error handlers: user handler per file, default for new files and failed opens, codes and strings", () -> {
            AtomicReference<MPIIOException> seen = new AtomicReference<>();
            File fh = new File(MPI.COMM_SELF, dir.resolve("eh-" + rank).toString(), RW);
            expect(fh.getErrhandler() == FileErrhandler.ERRORS_RETURN, "default handler is ERRORS_RETURN");
            fh.setErrhandler(FileErrhandler.of((f, e) -> seen.set(e)));
            try {
                fh.readAt(-1, new byte[1], 0, 1, MPI.BYTE);
                throw new AssertionError("negative offset accepted");
            } catch (MPIIOException e) {
                expect(seen.get() == e, "handler saw the raised exception");
                expectEquals(12, e.getErrorCode(), "MPI_ERR_ARG code");
                expect(ErrorClass.ofCode(32) == ErrorClass.ERR_IO, "code 32 is ERR_IO");
                expect(e.errorClass().errorString().equals("Invalid argument"), "string " + e.errorClass().errorString());
            }
            fh.close();
            AtomicReference<MPIIOException> byDefault = new AtomicReference<>();
            File.setDefaultErrhandler((f, e) -> byDefault.set(e));
            try {
                new File(MPI.COMM_SELF, dir.resolve("no-such-dir-" + rank).resolve("x").toString(), MPIIO.MODE_RDONLY);
                throw new AssertionError("open of a missing file succeeded");
            } catch (MPIIOException e) {
                expect(byDefault.get() == e, "default handler saw the failed open");
                expect(e.errorClass() == ErrorClass.ERR_NO_SUCH_FILE, "class " + e.errorClass());
            } finally {
                File.setDefaultErrhandler(FileErrhandler.ERRORS_RETURN);
            }
        });

        c.check("registerDatarep: user conversions run on write and read; unknown and duplicate names refused", () -> {
            String name = "xor-" + rank;
            Datarep.Conversion xor = new Datarep.Conversion() {
                @Override
                public void read(ByteBuffer data, int elementBytes, long count, long position) {
                    for (int i = data.position(); i < data.limit(); i++) data.put(i, (byte) (data.get(i) ^ 0x5a));
                }

                @Override
                public void write(ByteBuffer data, int elementBytes, long count, long position) {
                    read(data, elementBytes, count, position);
                }
            };
            File.registerDatarep(name, xor);
            try {
                File.registerDatarep(name, xor);
                throw new AssertionError("duplicate datarep accepted");
            } catch (MPIIOException e) {
                expect(e.errorClass() == ErrorClass.ERR_DUP_DATAREP, "class " + e.errorClass());
            }
            Path p = dir.resolve("datarep-" + rank);
            File fh = new File(MPI.COMM_SELF, p.toString(), RW);
            fh.setView(0, MPI.INT, MPI.INT, name, null);
            int[] data = {1, 2, 3, 0x01020304};
            fh.write(data, 0, 4, MPI.INT);
            int[] back = new int[4];
            fh.readAt(0, back, 0, 4, MPI.INT);
            for (int i = 0; i < 4; i++) expectEquals(data[i], back[i], "int " + i);
            byte[] raw = Files.readAllBytes(p);
            ByteBuffer nat = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
            for (int v : data) nat.putInt(v);
            for (int i = 0; i < 16; i++) expectEquals(nat.get(i) ^ 0x5a, raw[i], "converted byte " + i);
            try {
                fh.setView(0, MPI.INT, MPI.INT, "no-such-rep", null);
                throw new AssertionError("unknown datarep accepted");
            } catch (MPIIOException e) {
                expect(e.errorClass() == ErrorClass.ERR_UNSUPPORTED_DATAREP, "class " + e.errorClass());
            }
            fh.close();
        });

        c.check("getTypeExtent, getCount UNDEFINED, getElements", () -> {
            File fh = new File(MPI.COMM_SELF, dir.resolve("extent-" + rank).toString(), RW);
            Datatype v = Datatype.Vector(3, 2, 5, MPI.INT);
            v.Commit();
            expectEquals(4L * (2 * 5 + 2), fh.getTypeExtent(v), "vector extent in bytes");
            fh.write(new int[5], 0, 5, MPI.INT);
            IoStatus s = fh.readAt(0, new int[12], 0, 2, Datatype.Contiguous(3, MPI.INT));
            expectEquals(MPI.UNDEFINED, s.getCount(Datatype.Contiguous(3, MPI.INT)), "count of 5 ints in 3-int items");
            expectEquals(5, s.getElements(MPI.INT), "elements");
            fh.close();
        });

        c.check("darray with NONE/BLOCK/CYCLIC and a rank owning nothing; hindexedBlock filetype; subarray memory type", () -> {
            // 7 x 4 ints, dimension 0 BLOCK(4) over np processes (ranks beyond the second own nothing), dimension 1 NONE
            FileType d = Datatypes.darray(np, rank, new int[]{7, 4},
                    new Datatypes.Distribution[]{Datatypes.Distribution.BLOCK, Datatypes.Distribution.NONE},
                    new int[]{np > 1 ? 4 : Datatypes.DFLT_DARG, Datatypes.DFLT_DARG}, new int[]{np, 1}, Datatypes.Order.C, 4);
            long b = np > 1 ? 4 : 7;
            long rows = Math.max(0, Math.min(7, b * (rank + 1)) - Math.min(7, b * rank));
            expectEquals(rows * 4 * 4, d.sizeBytes(), "darray size of rank " + rank);
            expectEquals(7 * 4 * 4, d.extentBytes(), "darray extent");
            File fh = new File(w, dir.resolve("darray").toString(), RW);
            fh.setView(0, Datatypes.element(4), d, "native", null);
            int[] mine = new int[(int) (rows * 4)];
            for (int i = 0; i < mine.length; i++) mine[i] = (int) (rank * 16 + i);
            fh.writeAll(mine, 0, mine.length, MPI.INT);
            fh.close();
            w.Barrier();
            if (rank == 0) {
                ByteBuffer all = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("darray"))).order(ByteOrder.nativeOrder());
                for (int i = 0; i < 28; i++) expectEquals((i / 16) * 16 + i % 16, all.getInt(4 * i), "array int " + i);
            }
            // hindexedBlock: 2 ints at int displacements 3 and 0 (bytes), tiled
            FileType hb = Datatypes.hindexedBlock(2, new long[]{0, 12}, Datatypes.element(4));
            expectEquals(16, hb.sizeBytes(), "hindexedBlock size");
            expectEquals(20, hb.extentBytes(), "hindexedBlock extent");
            // subarray memory type: the 2x2 centre of a 4x4 int array
            FileType sub = Datatypes.subarray(new int[]{4, 4}, new int[]{2, 2}, new int[]{1, 1}, Datatypes.Order.C, 4);
            File fs = new File(MPI.COMM_SELF, dir.resolve("memsub-" + rank).toString(), RW);
            int[] grid = new int[16];
            for (int i = 0; i < 16; i++) grid[i] = i;
            fs.writeAt(0, grid, 0, 1, sub);
            int[] four = new int[4];
            fs.readAt(0, four, 0, 4, MPI.INT);
            expect(java.util.Arrays.equals(four, new int[]{5, 6, 9, 10}), "centre " + java.util.Arrays.toString(four));
            fs.close();
        });

        c.check("preallocate allocates without truncating; a filetype with a non-zero lower bound tiles by its extent", () -> {
            Path p = dir.resolve("prealloc-" + rank);
            File fh = new File(MPI.COMM_SELF, p.toString(), RW);
            fh.write(expected(0, 100), 0, 100, MPI.BYTE);
            fh.preallocate(3 << 20);
            expectEquals(3 << 20, fh.getSize(), "size after preallocate");
            fh.preallocate(10);
            expectEquals(3 << 20, fh.getSize(), "preallocate never shrinks");
            byte[] head = new byte[100];
            fh.readAt(0, head, 0, 100, MPI.BYTE);
            expectBytes(expected(0, 100), head, "data kept");
            // 4 bytes at displacement 8, resized to lb 4 and extent 16: tiles at 8, 24, 40
            FileType ft = Datatypes.indexed(new long[]{4}, new long[]{8}).resized(4, 16);
            fh.setView(0, FileType.bytes(1), ft, "native", null);
            expectEquals(8, fh.getByteOffset(0), "first tile");
            expectEquals(24, fh.getByteOffset(4), "second tile");
            expectEquals(40, fh.getByteOffset(8), "third tile");
            fh.close();
        });

        c.check("atomic mode: setAtomicity/getAtomicity are collective and need the same flag", () -> {
            File fh = new File(w, dir.resolve("atomic").toString(), RW);
            expect(!fh.getAtomicity(), "not atomic at open");
            fh.setAtomicity(true);
            expect(fh.getAtomicity(), "atomic after set");
            byte[] mine = expected(rank * 100L, 100);
            fh.writeAtAll(rank * 100L, mine, 0, 100, MPI.BYTE);
            byte[] back = new byte[100];
            fh.readAtAll(rank * 100L, back, 0, 100, MPI.BYTE);
            expectBytes(mine, back, "atomic collective round trip");
            if (np > 1) {
                try {
                    fh.setAtomicity(rank == 0);
                    throw new AssertionError("different flags accepted");
                } catch (MPIIOException e) {
                    expect(e.errorClass() == ErrorClass.ERR_NOT_SAME, "class " + e.errorClass());
                }
            }
            fh.close();
        });

        c.check("atomic mode on a driver without byte-range locks (as HDFS) is ERR_UNSUPPORTED_OPERATION everywhere", () -> {
            FailingStorageDriver.lockless = true;
            try {
                File fh = new File(w, "failfs://" + dir.resolve("lockless").toAbsolutePath(), RW);
                try {
                    fh.setAtomicity(true);
                    throw new AssertionError("atomic mode accepted without locks");
                } catch (MPIIOException e) {
                    expect(e.errorClass() == ErrorClass.ERR_UNSUPPORTED_OPERATION, "class " + e.errorClass());
                }
                expect(!fh.getAtomicity(), "still non-atomic");
                fh.close();
            } finally {
                FailingStorageDriver.lockless = false;
            }
        });

        c.check("a call above the piece size runs as pieces of whole items (the >2 GiB path, with 1000-byte pieces)", () -> {
            w.Barrier();
            System.setProperty("pdla.mpiio.pieceBytes", "1000");
            File fh = new File(MPI.COMM_SELF, dir.resolve("pieces-" + rank).toString(), RW);
            w.Barrier();
            System.clearProperty("pdla.mpiio.pieceBytes");
            Datatype vec = Datatype.Vector(5, 1, 2, MPI.LONG); // 40 bytes of data over a 72-byte extent
            vec.Commit();
            long[] src = new long[3 + 100 * 9];
            for (int i = 0; i < src.length; i++) src[i] = i * 1_000_003L + rank;
            expectEquals(4000, fh.writeAt(0, src, 3, 100, vec).getBytes(), "bytes written in 4 pieces");
            long[] flat = new long[500];
            fh.readAt(0, flat, 0, 500, MPI.LONG);
            for (int i = 0; i < 500; i++) expectEquals(src[3 + (i / 5) * 9 + (i % 5) * 2], flat[i], "long " + i);
            long[] back = new long[200 * 9];
            IoStatus s = fh.readAt(0, back, 0, 200, vec); // 8000 bytes asked, the file ends at 4000
            expectEquals(4000, s.getBytes(), "short read across pieces");
            for (int i = 0; i < 500; i++) expectEquals(flat[i], back[(i / 5) * 9 + (i % 5) * 2], "read back long " + i);
            fh.close();
        });

        c.check("a collective call above the piece size runs as the same number of collective calls on every rank", () -> {
            w.Barrier();
            System.setProperty("pdla.mpiio.pieceBytes", "1000");
            File fh = new File(w, dir.resolve("coll-pieces").toString(), RW);
            w.Barrier();
            System.clearProperty("pdla.mpiio.pieceBytes");
            int n = 300 * (rank + 1); // 2,400 bytes per rank more than the last: 3, 5, 8 ... pieces of 125 longs
            long region = 8L * 300 * (w.Size() + 1) * w.Size();
            long[] src = new long[n];
            for (int i = 0; i < n; i++) src[i] = i * 7_000_003L + rank;
            Info cb = new Info();
            cb.set("romio_cb_write", "enable");
            cb.set("romio_cb_read", "enable");
            fh.setInfo(cb);
            expectEquals(8L * n, fh.writeAtAll(rank * region, src, 0, n, MPI.LONG).getBytes(), "bytes written");
            long[] back = new long[n];
            IoStatus s = fh.readAtAll(rank * region, back, 0, n, MPI.LONG);
            expectEquals(8L * n, s.getBytes(), "bytes read");
            for (int i = 0; i < n; i++) expectEquals(src[i], back[i], "long " + i);
            fh.close();
        });

        c.done();
        MPI.Finalize();
    }

    private static byte[] expected(long offset, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) b[i] = valueAt(offset + i);
        return b;
    }
}
