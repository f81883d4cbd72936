package io.pdla.mpiio.programs;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.ErrorClass;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.IoRequest;
import io.pdla.mpiio.IoStatus;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.pdla.mpiio.programs.Checks.expect;
import static io.pdla.mpiio.programs.Checks.expectBytes;
import static io.pdla.mpiio.programs.Checks.expectEquals;
import static io.pdla.mpiio.programs.Checks.valueAt;

/**
 * Exercises every call of the MPI-IO API on any number of ranks and verifies the data byte for byte
 * against values computed from file offsets alone. Argument: a directory for the files.
 */
public final class ApiConformanceProgram {
    private static final int RW = MPIIO.MODE_RDWR | MPIIO.MODE_CREATE;

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path dir = Path.of(args[0]);
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.Rank(), np = w.Size();
        Checks c = new Checks();

        c.check("explicit offsets: writeAt/readAt of another rank's block", () -> {
            String f = dir.resolve("explicit").toString();
            int block = 4096;
            File fh = new File(w, f, RW);
            byte[] mine = expected(rank * (long) block, block);
            IoStatus s = fh.writeAt(rank * (long) block, mine, 0, block, MPI.BYTE);
            expectEquals(block, s.getCount(), "written count");
            w.Barrier();
            int other = (rank + 1) % np;
            byte[] back = new byte[block];
            expectEquals(block, fh.readAt(other * (long) block, back, 0, block, MPI.BYTE).getCount(), "read count");
            expectBytes(expected(other * (long) block, block), back, "block of rank " + other);
            expectEquals((long) np * block, fh.getSize(), "size");
            fh.close();
        });

        c.check("collective explicit offsets with int buffers and buffer offsets", () -> {
            String f = dir.resolve("atall").toString();
            int n = 1000;
            File fh = new File(w, f, RW);
            int[] data = new int[n + 5];
            for (int i = 0; i < n; i++) data[5 + i] = rank * 1_000_000 + i;
            fh.writeAtAll((long) rank * n * 4, data, 5, n, MPI.INT);
            int[] back = new int[n];
            int peer = np - 1 - rank;
            IoStatus s = fh.readAtAll((long) peer * n * 4, back, 0, n, MPI.INT);
            expectEquals(n, s.getCount(), "ints read");
            expectEquals(4L * n, s.getBytes(), "bytes read");
            for (int i = 0; i < n; i++) expectEquals(peer * 1_000_000 + i, back[i], "int " + i);
            fh.close();
        });

        c.check("individual pointer: write, seek (SET/CUR/END), read, getPosition, getByteOffset", () -> {
            String f = dir.resolve("pointer-" + rank).toString();
            File fh = new File(MPI.COMM_SELF, f, RW);
            byte[] a = expected(0, 300);
            fh.write(a, 0, 100, MPI.BYTE);
            fh.write(a, 100, 200, MPI.BYTE);
            expectEquals(300, fh.getPosition(), "position after writes");
            fh.seek(-50, MPIIO.SEEK_CUR);
            expectEquals(250, fh.getPosition(), "SEEK_CUR");
            fh.seek(10, MPIIO.SEEK_SET);
            byte[] back = new byte[20];
            fh.read(back, 0, 20, MPI.BYTE);
            expectBytes(slice(a, 10, 20), back, "read after SEEK_SET");
            expectEquals(30, fh.getPosition(), "position after read");
            fh.seek(-5, MPIIO.SEEK_END);
            IoStatus s = fh.read(back, 0, 20, MPI.BYTE);
            expectEquals(5, s.getCount(), "short read at end of file");
            expectEquals(300, fh.getPosition(), "pointer advances by what was read");
            expectEquals(17, fh.getByteOffset(17), "byte offset in the default view");
            fh.close();
        });

        c.check("collective individual-pointer access through an interleaved vector view", () -> {
            String f = dir.resolve("vector-view").toString();
            int blk = 16, rounds = 64;
            File fh = new File(w, f, RW);
            FileType filetype = Datatypes.vector(1, blk, (long) blk * np);
            fh.setView((long) rank * blk, FileType.bytes(1), filetype.resized(0, (long) blk * np), "native", new Info());
            byte[] mine = new byte[blk * rounds];
            for (int r = 0; r < rounds; r++) {
                long fileOff = ((long) r * np + rank) * blk;
                System.arraycopy(expected(fileOff, blk), 0, mine, r * blk, blk);
            }
            fh.writeAll(mine, 0, mine.length, MPI.BYTE);
            expectEquals(mine.length, fh.getPosition(), "pointer in view etypes");
            expectEquals(((long) rounds * np + rank) * blk, fh.getByteOffset(mine.length), "byte offset of view position");
            fh.close();
            File check = new File(w, f, MPIIO.MODE_RDONLY);
            byte[] whole = new byte[blk * rounds * np];
            check.readAtAll(0, whole, 0, whole.length, MPI.BYTE);
            expectBytes(expected(0, whole.length), whole, "whole file after interleaved collective writes");
            check.close();
        });

        c.check("views with int etypes: MPJ Vector and Indexed filetypes, displacement", () -> {
            String f = dir.resolve("typed-view").toString();
            File fh = new File(w, f, RW);
            long disp = 64;
            // each rank owns int columns rank, rank+np, ... of rows of np ints: Vector(count, 1, np, INT)
            int rows = 50;
            Datatype column = Datatype.Vector(rows, 1, np, MPI.INT);
            column.Commit();
            fh.setView(disp + 4L * rank, MPI.INT, column, "native", new Info());
            int[] vals = new int[rows];
            for (int r = 0; r < rows; r++) vals[r] = r * np + rank;
            fh.writeAll(vals, 0, rows, MPI.INT);
            fh.setView(disp, MPI.INT, MPI.INT, "native", new Info());
            int[] all = new int[rows * np];
            fh.readAtAll(0, all, 0, all.length, MPI.INT);
            for (int i = 0; i < all.length; i++) expectEquals(i, all[i], "int " + i + " of the row-major matrix");
            // Indexed: blocks of 2 ints at int displacements 0 and 5 of each 8-int tile, read back from the same data
            Datatype idx = Datatype.Indexed(new int[]{2, 2}, new int[]{0, 5}, MPI.INT);
            idx.Commit();
            FileType flat = Datatypes.flatten(idx).resized(0, 32);
            fh.setView(disp, FileType.bytes(4), flat, "native", new Info());
            int[] picked = new int[8];
            fh.readAt(0, picked, 0, 8, MPI.INT);
            int[] want = {0, 1, 5, 6, 8, 9, 13, 14};
            for (int i = 0; i < 8; i++) expectEquals(want[i], picked[i], "indexed view int " + i);
            expectEquals(4, fh.getByteOffset(1) - disp, "getByteOffset of etype 1");
            expectEquals(20, fh.getByteOffset(2) - disp, "getByteOffset skips the hole");
            fh.close();
        });

        c.check("subarray tiles written collectively equal the row-major array", () -> {
            String f = dir.resolve("tiles").toString();
            int[] grid = grid(np);
            int tileR = 8, tileC = 6;
            int rowsTotal = tileR * grid[0], colsTotal = tileC * grid[1];
            FileType tile = Datatypes.darrayBlock(rank, new int[]{rowsTotal, colsTotal}, grid, Datatypes.Order.C, 8);
            File fh = new File(w, f, RW);
            fh.setView(0, FileType.bytes(8), tile, "native", new Info());
            int r0 = (rank / grid[1]) * tileR, c0 = (rank % grid[1]) * tileC;
            double[] mine = new double[tileR * tileC];
            for (int i = 0; i < tileR; i++) for (int j = 0; j < tileC; j++) mine[i * tileC + j] = (r0 + i) * 1000.0 + (c0 + j);
            fh.writeAll(mine, 0, mine.length, MPI.DOUBLE);
            fh.close();
            File rd = new File(w, f, MPIIO.MODE_RDONLY);
            double[] all = new double[rowsTotal * colsTotal];
            rd.readAtAll(0, all, 0, all.length, MPI.DOUBLE);
            for (int i = 0; i < rowsTotal; i++) for (int j = 0; j < colsTotal; j++) {
                if (all[i * colsTotal + j] != i * 1000.0 + j) throw new AssertionError("element (" + i + "," + j + ") = " + all[i * colsTotal + j]);
            }
            rd.close();
        });

        c.check("derived memory datatype: every other int of the buffer is written", () -> {
            String f = dir.resolve("memtype-" + rank).toString();
            File fh = new File(MPI.COMM_SELF, f, RW);
            Datatype everyOther = Datatype.Vector(10, 1, 2, MPI.INT);
            everyOther.Commit();
            int[] buf = new int[20];
            for (int i = 0; i < 20; i++) buf[i] = i;
            fh.writeAt(0, buf, 0, 1, everyOther);
            int[] back = new int[10];
            fh.readAt(0, back, 0, 10, MPI.INT);
            for (int i = 0; i < 10; i++) expectEquals(2L * i, back[i], "int " + i);
            int[] scatter = new int[20];
            fh.readAt(0, scatter, 0, 1, everyOther);
            for (int i = 0; i < 20; i++) expectEquals(i % 2 == 0 ? i : 0, scatter[i], "scattered int " + i);
            fh.close();
        });

        c.check("shared pointer: writeShared records are all there, once each", () -> {
            String f = dir.resolve("shared").toString();
            File fh = new File(w, f, RW);
            int rec = 64, per = 5;
            for (int k = 0; k < per; k++) {
                byte[] b = new byte[rec];
                java.util.Arrays.fill(b, (byte) (rank * per + k + 1));
                fh.writeShared(b, 0, rec, MPI.BYTE);
            }
            w.Barrier();
            expectEquals((long) np * per * rec, fh.getPositionShared(), "shared pointer after all writes");
            byte[] all = new byte[np * per * rec];
            fh.readAt(0, all, 0, all.length, MPI.BYTE);
            boolean[] seen = new boolean[np * per + 1];
            for (int i = 0; i < np * per; i++) {
                int tag = all[i * rec];
                for (int j = 1; j < rec; j++) expect(all[i * rec + j] == tag, "record " + i + " is torn");
                expect(tag >= 1 && tag <= np * per && !seen[tag], "record tag " + tag + " missing or duplicated");
                seen[tag] = true;
            }
            fh.seekShared(0, MPIIO.SEEK_SET);
            expectEquals(0, fh.getPositionShared(), "after seekShared");
            w.Barrier(); // nobody moves the pointer before every rank has looked at it
            byte[] one = new byte[rec];
            fh.readShared(one, 0, rec, MPI.BYTE);
            w.Barrier();
            expectEquals((long) np * rec, fh.getPositionShared(), "each rank read one record");
            fh.close();
        });

        c.check("ordered access: writeOrdered lands in rank order, readOrdered reads it back", () -> {
            String f = dir.resolve("ordered").toString();
            File fh = new File(w, f, RW);
            byte[] mine = new byte[10 + rank];
            java.util.Arrays.fill(mine, (byte) (rank + 1));
            fh.writeOrdered(mine, 0, mine.length, MPI.BYTE);
            int total = 0;
            for (int r = 0; r < np; r++) total += 10 + r;
            byte[] all = new byte[total];
            fh.readAt(0, all, 0, total, MPI.BYTE);
            int pos = 0;
            for (int r = 0; r < np; r++) for (int j = 0; j < 10 + r; j++) expectEquals(r + 1, all[pos++], "byte " + (pos - 1));
            fh.seekShared(0, MPIIO.SEEK_SET);
            byte[] back = new byte[10 + rank];
            fh.readOrdered(back, 0, back.length, MPI.BYTE);
            expectBytes(mine, back, "readOrdered");
            fh.close();
        });

        c.check("nonblocking iWriteAt/iReadAt with test and waitFor", () -> {
            String f = dir.resolve("nonblocking-" + rank).toString();
            File fh = new File(MPI.COMM_SELF, f, RW);
            IoRequest[] reqs = new IoRequest[8];
            for (int i = 0; i < 8; i++) reqs[i] = fh.iWriteAt(i * 1000L, expected(i * 1000L, 1000), 0, 1000, MPI.BYTE);
            IoStatus[] st = IoRequest.waitAll(reqs);
            for (IoStatus s : st) expectEquals(1000, s.getCount(), "nonblocking write count");
            byte[] back = new byte[8000];
            IoRequest r = fh.iReadAt(0, back, 0, 8000, MPI.BYTE);
            IoStatus s = r.waitFor();
            expect(r.test(), "test() after waitFor");
            expectEquals(8000, s.getCount(), "nonblocking read count");
            expectBytes(expected(0, 8000), back, "nonblocking read data");
            fh.close();
        });

        c.check("sizes, sync, amode, info, group", () -> {
            String f = dir.resolve("sizes").toString();
            Info info = new Info().set("pdla_test_hint", "42");
            File fh = new File(w, f, RW, info);
            fh.setSize(10_000);
            expectEquals(10_000, fh.getSize(), "setSize grows");
            fh.setSize(100);
            expectEquals(100, fh.getSize(), "setSize shrinks");
            fh.preallocate(50);
            expectEquals(100, fh.getSize(), "preallocate never shrinks");
            fh.preallocate(4096);
            expectEquals(4096, fh.getSize(), "preallocate grows");
            fh.sync();
            expectEquals(RW, fh.getAmode(), "amode");
            expect("42".equals(fh.getInfo().get("pdla_test_hint")), "hint kept in getInfo");
            fh.setInfo(new Info().set("another", "x"));
            expect("x".equals(fh.getInfo().get("another")), "setInfo adds hints");
            expectEquals(np, fh.getGroup().Size(), "group size");
            fh.close();
        });

        c.check("MODE_APPEND starts the pointers at the end of the file", () -> {
            String f = dir.resolve("append-" + rank).toString();
            File fh = new File(MPI.COMM_SELF, f, RW);
            fh.write(expected(0, 100), 0, 100, MPI.BYTE);
            fh.close();
            File ap = new File(MPI.COMM_SELF, f, MPIIO.MODE_WRONLY | MPIIO.MODE_APPEND);
            expectEquals(100, ap.getPosition(), "initial individual pointer");
            expectEquals(100, ap.getPositionShared(), "initial shared pointer");
            ap.write(expected(100, 50), 0, 50, MPI.BYTE);
            ap.close();
            expectBytes(expected(0, 150), Files.readAllBytes(Path.of(f)), "appended file");
        });

        c.check("MODE_DELETE_ON_CLOSE removes the file at close", () -> {
            Path f = dir.resolve("scratch");
            File fh = new File(w, f.toString(), RW | MPIIO.MODE_DELETE_ON_CLOSE);
            fh.writeAt(rank, new byte[]{1}, 0, 1, MPI.BYTE);
            expect(Files.exists(f), "exists while open");
            fh.close();
            expect(!Files.exists(f), "gone after close");
        });

        c.check("MODE_EXCL on an existing file fails with ERR_FILE_EXISTS on every rank", () -> {
            String f = dir.resolve("explicit").toString();
            try {
                new File(w, f, MPIIO.MODE_RDWR | MPIIO.MODE_CREATE | MPIIO.MODE_EXCL);
                throw new AssertionError("exclusive open of an existing file succeeded");
            } catch (MPIIOException e) {
                expect(e.errorClass() == ErrorClass.ERR_FILE_EXISTS, "error class " + e.errorClass());
            }
        });

        c.check("delete: ERR_FILE_IN_USE while open, then gone, then ERR_NO_SUCH_FILE", () -> {
            String f = dir.resolve("to-delete-" + rank).toString();
            File fh = new File(MPI.COMM_SELF, f, RW);
            try {
                File.delete(f);
                throw new AssertionError("deleted an open file");
            } catch (MPIIOException e) {
                expect(e.errorClass() == ErrorClass.ERR_FILE_IN_USE, "error class " + e.errorClass());
            }
            fh.close();
            File.delete(f);
            expect(!Files.exists(Path.of(f)), "deleted");
            try {
                File.delete(f);
                throw new AssertionError("deleted a missing file");
            } catch (MPIIOException e) {
                expect(e.errorClass() == ErrorClass.ERR_NO_SUCH_FILE, "error class " + e.errorClass());
            }
        });

        c.check("ByteBuffer reads and writes", () -> {
            String f = dir.resolve("bytebuffer-" + rank).toString();
            File fh = new File(MPI.COMM_SELF, f, RW);
            java.nio.ByteBuffer src = java.nio.ByteBuffer.allocateDirect(512);
            src.put(expected(0, 512)).flip();
            expectEquals(512, fh.writeAt(0, src).getBytes(), "bytes written");
            expect(!src.hasRemaining(), "buffer consumed");
            java.nio.ByteBuffer dst = java.nio.ByteBuffer.allocate(600);
            expectEquals(512, fh.readAt(0, dst).getBytes(), "short read into a larger buffer");
            expectBytes(expected(0, 512), java.util.Arrays.copyOf(dst.array(), 512), "data");
            fh.close();
        });

        c.done();
        MPI.Finalize();
    }

    static byte[] expected(long fileOffset, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) b[i] = valueAt(fileOffset + i);
        return b;
    }

    static byte[] slice(byte[] a, int from, int n) {
        return java.util.Arrays.copyOfRange(a, from, from + n);
    }

    /** A process grid for np ranks: as square as possible. */
    static int[] grid(int np) {
        int r = (int) Math.sqrt(np);
        while (np % r != 0) r--;
        return new int[]{r, np / r};
    }
}
