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
import static io.pdla.mpiio.programs.Checks.expectEquals;

/**
 * Issue 32: what MPI-IO test programs from outside the project catch, each written from MPI-4.0 chapter 14 and
 * ROMIO's checks. Args: directory, then the part to run ({@code bigtypes}, {@code overlap}, {@code errors},
 * {@code sequential}, {@code nullbuffer}).
 */
public final class ConformanceProgram {
    interface Call {
        void run() throws Exception;
    }

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path dir = Path.of(args[0]);
        Intracomm w = MPI.COMM_WORLD;
        Checks c = new Checks();
        switch (args[1]) {
            case "bigtypes" -> bigTypes(c, w, dir);
            case "overlap" -> overlap(c, w, dir);
            case "errors" -> errors(c, w, dir);
            case "sequential" -> sequential(c, w, dir);
            case "nullbuffer" -> nullBuffer(c, w, dir);
            case "flatten" -> flattenAgainstTheStandard(c, Long.parseLong(args[2]));
            default -> throw new IllegalArgumentException("unknown part " + args[1]);
        }
        c.done();
        MPI.Finalize();
    }

    // ------------------------------------------------------------------ item 1: types that merge

    /** 2^27 pieces: twice the old bound on typemap pieces (2^26), one run once merged. */
    private static final int PIECES = 1 << 27;

    private static void bigTypes(Checks c, Intracomm w, Path dir) throws Exception {
        int rank = w.Rank(), np = w.Size();
        String name = dir.resolve("bigtypes").toString();
        c.check("a vector of 2^27 one-int blocks of stride 1 is one 512 MiB run: setView takes it", () -> {
            Datatype run = Datatype.Vector(PIECES, 1, 1, MPI.INT);
            run.Commit();
            File f = new File(w, name, MPIIO.MODE_RDWR | MPIIO.MODE_CREATE);
            f.setView(0, MPI.INT, run, "native", new Info());
            expectEquals(1, f.getView().filetype().blockCount(), "blocks of the flattened filetype");
            expectEquals(4L * PIECES, f.getView().filetype().sizeBytes(), "bytes of the filetype");
            // a little data through the view: it is contiguous, rank r's ints at r * 256
            int[] mine = new int[256];
            for (int i = 0; i < mine.length; i++) mine[i] = rank * 1000 + i;
            f.writeAtAll(rank * 256L, mine, 0, 256, MPI.INT);
            int[] back = new int[256];
            f.readAt(((rank + 1) % np) * 256L, back, 0, 256, MPI.INT);
            for (int i = 0; i < back.length; i++) expectEquals(((rank + 1) % np) * 1000 + i, back[i], "int " + i);
            f.close();
        });
        c.check("the same run built other ways (contiguous of contiguous, indexed, struct, hindexed) is one block", () -> {
            Datatype inner = Datatype.Contiguous(1 << 14, MPI.BYTE);
            Datatype nested = Datatype.Contiguous(PIECES >> 14, inner);
            Datatype indexed = Datatype.Indexed(new int[]{PIECES}, new int[]{0}, MPI.BYTE);
            Datatype struct = Datatype.Struct(new int[]{PIECES / 2, PIECES / 2}, new int[]{0, PIECES / 2}, new Datatype[]{MPI.BYTE, MPI.BYTE});
            for (Datatype t : new Datatype[]{nested, indexed, struct}) {
                t.Commit();
                FileType ft = io.pdla.mpiio.Datatypes.flatten(t);
                expectEquals(1, ft.blockCount(), t.getClass().getSimpleName() + " blocks");
                expectEquals(PIECES, ft.sizeBytes(), t.getClass().getSimpleName() + " bytes");
            }
            FileType hb = Datatypes.hindexedBlock(PIECES, new long[]{0}, Datatypes.element(4));
            expectEquals(1, hb.blockCount(), "hindexedBlock blocks");
            FileType whole = Datatypes.subarray(new int[]{PIECES, 2}, new int[]{PIECES, 2}, new int[]{0, 0}, Datatypes.Order.C, 1);
            expectEquals(1, whole.blockCount(), "a whole-array subarray's blocks");
        });
        c.check("a type whose merged form is above FileType.MAX_BLOCKS: ERR_TYPE stating the bound", () -> {
            Datatype gaps = Datatype.Vector(PIECES, 1, 2, MPI.BYTE);
            gaps.Commit();
            File f = new File(w, name, MPIIO.MODE_RDWR);
            MPIIOException e = fails(ErrorClass.ERR_TYPE, String.valueOf(FileType.MAX_BLOCKS), () -> f.setView(0, MPI.BYTE, gaps, "native", new Info()));
            expect(e.getMessage().contains("MAX_BLOCKS"), "message names the bound: " + e.getMessage());
            fails(ErrorClass.ERR_TYPE, String.valueOf(FileType.MAX_BLOCKS), () -> f.writeAt(0, new byte[1], 0, 1, gaps)); // refused at flattening, before the buffer is looked at
            f.close();
        });
        c.check("a memory datatype of 2^26 + 1 pieces that merge, in every call that flattens", () -> {
            int n = (1 << 26) + 1;
            Datatype pieces = Datatype.Contiguous(n, Datatype.Contiguous(1, MPI.BYTE)); // no basic-run shortcut in MPJ's tree
            pieces.Commit();
            String mine = dir.resolve("bigmem-" + rank).toString();
            File f = new File(MPI.COMM_SELF, mine, MPIIO.MODE_RDWR | MPIIO.MODE_CREATE);
            byte[] data = new byte[n];
            for (int i = 0; i < n; i += 4093) data[i] = (byte) (i / 4093 + rank);
            data[n - 1] = 77;
            expectEquals(n, f.writeAt(0, data, 0, 1, pieces).getBytes(), "independent write");
            expectEquals(n, f.writeAtAll(n, data, 0, 1, pieces).getBytes(), "collective write");
            expectEquals(n, f.iWriteAt(2L * n, data, 0, 1, pieces).waitFor().getBytes(), "nonblocking write");
            f.writeAtAllBegin(3L * n, data, 0, 1, pieces);
            expectEquals(n, f.writeAtAllEnd(data).getBytes(), "split collective write");
            for (int k = 0; k < 4; k++) {
                byte[] back = new byte[n];
                IoStatus s = switch (k) {
                    case 0 -> f.readAt(0, back, 0, 1, pieces);
                    case 1 -> f.readAtAll((long) n, back, 0, 1, pieces);
                    case 2 -> f.iReadAt(2L * n, back, 0, 1, pieces).waitFor();
                    default -> {
                        f.readAtAllBegin(3L * n, back, 0, 1, pieces);
                        yield f.readAtAllEnd(back);
                    }
                };
                expectEquals(n, s.getBytes(), "read " + k);
                expect(java.util.Arrays.equals(data, back), "data of copy " + k);
            }
            f.close();
        });
    }

    /**
     * Merging while flattening keeps the typemap: random nested MPJ types (contiguous, vector, hvector, indexed,
     * hindexed, struct; negative strides and displacements, zero-length blocks) flattened by pdla and expanded element
     * by element equal the typemap the standard defines (MPI-4.0 5.1), built here beside each type from its
     * arguments alone, element by element, with lower and upper bounds from the typemap (no markers).
     * MPJ's own transfers are no oracle: its Lb()/Extent() of nested types do not follow the standard.
     */
    private static void flattenAgainstTheStandard(Checks c, long seed) {
        c.check("flattened typemaps equal the standard's for random nested types (seed " + seed + ")", () -> {
            java.util.Random rnd = new java.util.Random(seed);
            int compared = 0;
            for (int k = 0; k < 400; k++) {
                Typed t = randomType(rnd, 3);
                if (t.map().length > 20_000) continue;
                t.mpj().Commit();
                FileType ft = Datatypes.flatten(t.mpj());
                long[] mine = new long[Math.toIntExact(ft.sizeBytes() / 4)];
                int n = 0;
                for (int b = 0; b < ft.blockCount(); b++) {
                    for (long j = 0; j < ft.length(b) / 4; j++) mine[n++] = ft.displacement(b) / 4 + j;
                }
                if (!java.util.Arrays.equals(t.map(), mine)) {
                    throw new AssertionError("type " + k + " " + t.what() + ": standard typemap " + java.util.Arrays.toString(t.map())
                            + ", flattened " + java.util.Arrays.toString(mine) + " (" + ft + ")");
                }
                expectEquals(4 * t.lb(), ft.lbBytes(), "lower bound of type " + k + " " + t.what());
                expectEquals(4 * t.extent(), ft.extentBytes(), "extent of type " + k + " " + t.what());
                compared++;
            }
            expect(compared > 200, "only " + compared + " types compared");
        });
    }

    /** An MPJ type and its typemap by the standard: element displacements (ints) in typemap order. */
    private record Typed(Datatype mpj, long[] map, String what) {
        long lb() {
            return map.length == 0 ? 0 : java.util.Arrays.stream(map).min().getAsLong();
        }

        long extent() {
            return map.length == 0 ? 0 : java.util.Arrays.stream(map).max().getAsLong() + 1 - lb();
        }
    }

    /** {@code copies} of {@code old}'s typemap, copy i at displacement {@code at[i]}. */
    private static long[] place(Typed old, long[] at) {
        long[] out = new long[at.length * old.map().length];
        int n = 0;
        for (long a : at) for (long d : old.map()) out[n++] = a + d;
        return out;
    }

    /** No type of size 0 (an empty typemap's bounds are the implementation's); zero-length blocks beside others stay in. */
    private static Typed randomType(java.util.Random rnd, int depth) throws Exception {
        Typed basic = new Typed(MPI.INT, new long[]{0}, "INT");
        if (depth == 0 || rnd.nextInt(4) == 0) return basic;
        Typed old = randomType(rnd, depth - 1);
        long ext = old.extent();
        java.util.List<Long> at = new java.util.ArrayList<>();
        switch (rnd.nextInt(6)) {
            case 0: {
                int count = 1 + rnd.nextInt(4);
                for (int i = 0; i < count; i++) at.add(i * ext);
                return new Typed(Datatype.Contiguous(count, old.mpj()), place(old, longs(at)), "contiguous(" + count + ", " + old.what() + ")");
            }
            case 1:
            case 2: {
                boolean bytes = rnd.nextBoolean(); // Hvector: MPJ counts its stride in base elements
                int count = 1 + rnd.nextInt(4), bl = 1 + rnd.nextInt(3), stride = bytes ? rnd.nextInt(33) - 12 : rnd.nextInt(11) - 4;
                for (int i = 0; i < count; i++) for (int j = 0; j < bl; j++) at.add((bytes ? i * (long) stride : i * stride * ext) + j * ext);
                Datatype t = bytes ? Datatype.Hvector(count, bl, stride, old.mpj()) : Datatype.Vector(count, bl, stride, old.mpj());
                return new Typed(t, place(old, longs(at)), (bytes ? "hvector(" : "vector(") + count + ", " + bl + ", " + stride + ", " + old.what() + ")");
            }
            case 3:
            case 4: {
                boolean bytes = rnd.nextBoolean();
                int n = 1 + rnd.nextInt(4);
                int[] lens = new int[n], disps = new int[n];
                for (int i = 0; i < n; i++) {
                    lens[i] = i == 0 ? 1 + rnd.nextInt(3) : rnd.nextInt(4);
                    disps[i] = rnd.nextInt(17) - 6;
                    for (int j = 0; j < lens[i]; j++) at.add((bytes ? disps[i] : disps[i] * ext) + j * ext);
                }
                Datatype t = bytes ? Datatype.Hindexed(lens, disps, old.mpj()) : Datatype.Indexed(lens, disps, old.mpj());
                return new Typed(t, place(old, longs(at)), (bytes ? "hindexed(" : "indexed(") + java.util.Arrays.toString(lens) + ", "
                        + java.util.Arrays.toString(disps) + ", " + old.what() + ")");
            }
            default: {
                int n = 1 + rnd.nextInt(3);
                int[] lens = new int[n], disps = new int[n];
                Datatype[] types = new Datatype[n];
                java.util.List<Long> map = new java.util.ArrayList<>();
                StringBuilder what = new StringBuilder("struct(");
                for (int i = 0; i < n; i++) {
                    Typed ti = i == 0 ? old : randomType(rnd, depth - 1);
                    lens[i] = i == 0 ? 1 + rnd.nextInt(2) : rnd.nextInt(3);
                    disps[i] = rnd.nextInt(41) - 10;
                    types[i] = ti.mpj();
                    long[] copies = new long[lens[i]];
                    for (int j = 0; j < lens[i]; j++) copies[j] = disps[i] + j * ti.extent();
                    for (long d : place(ti, copies)) map.add(d);
                    what.append(lens[i]).append(" x ").append(ti.what()).append(" at ").append(disps[i]).append("; ");
                }
                return new Typed(Datatype.Struct(lens, disps, types), longs(map), what.append(')').toString());
            }
        }
    }

    private static long[] longs(java.util.List<Long> l) {
        return l.stream().mapToLong(Long::longValue).toArray();
    }

    // ------------------------------------------------------------------ item 2: overlap when reading

    private static void overlap(Checks c, Intracomm w, Path dir) throws Exception {
        int rank = w.Rank();
        Path p = dir.resolve("overlap");
        byte[] file = new byte[4096];
        for (int i = 0; i < file.length; i++) file[i] = Checks.valueAt(i);
        if (rank == 0) Files.write(p, file);
        w.Barrier();
        String name = p.toString();
        // typemap (0,8) (4,8) (4,4): starts never decrease, regions overlap, the last repeats bytes 4..7; extent 16
        FileType overlapping = Datatypes.indexed(new long[]{8, 8, 4}, new long[]{0, 4, 4}).resized(0, 16);
        int[][] map = {{0, 8}, {4, 8}, {4, 4}};
        c.check("read-only file: an overlapping filetype is a view; reads give the typemap's bytes in typemap order, duplicates included", () -> {
            File f = new File(w, name, MPIIO.MODE_RDONLY);
            f.setView(100, FileType.bytes(1), overlapping, "native", new Info());
            int n = 3 * 20 + 7; // three tiles and part of a fourth
            byte[] want = viewBytes(file, 100, map, 16, n);
            byte[] got = new byte[n];
            expectEquals(n, f.readAt(0, got, 0, n, MPI.BYTE).getBytes(), "independent read");
            Checks.expectBytes(want, got, "independent read");
            byte[] all = new byte[n];
            expectEquals(n, f.readAtAll(0, all, 0, n, MPI.BYTE).getBytes(), "collective read");
            Checks.expectBytes(want, all, "collective read");
            byte[] nb = new byte[n];
            f.iReadAt(0, nb, 0, n, MPI.BYTE).waitFor();
            Checks.expectBytes(want, nb, "nonblocking read");
            f.seek(5, MPIIO.SEEK_SET);
            byte[] mid = new byte[30];
            f.read(mid, 0, 30, MPI.BYTE);
            Checks.expectBytes(java.util.Arrays.copyOfRange(viewBytes(file, 100, map, 16, 35), 5, 35), mid, "read from view position 5");
            f.close();
        });
        c.check("read-only file: MPJ types with duplicate displacements, and two-phase reading them", () -> {
            Datatype dup = Datatype.Indexed(new int[]{2, 2}, new int[]{3, 3}, MPI.INT); // ints 3,4 twice
            dup.Commit();
            File f = new File(w, name, MPIIO.MODE_RDONLY, new Info().set("romio_cb_read", "enable").set("cb_nodes", "1"));
            f.setView(0, MPI.INT, dup, "native", new Info());
            int[] got = new int[8];
            f.readAll(got, 0, 8, MPI.INT);
            java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(file).order(java.nio.ByteOrder.nativeOrder());
            // typemap ints 3, 4, 3, 4; lower bound 3, upper bound 5: each copy 2 ints after the last
            int[] want = new int[8];
            for (int i = 0; i < 8; i++) want[i] = bb.getInt(4 * (3 + 2 * (i / 4) + i % 2));
            for (int i = 0; i < 8; i++) expectEquals(want[i], got[i], "int " + i);
            f.close();
        });
        c.check("open for writing: the same overlapping filetype is ERR_IO (ROMIO's **iobadoverlap), as MPI forbids", () -> {
            File f = new File(w, name, MPIIO.MODE_RDWR);
            MPIIOException e = fails(ErrorClass.ERR_IO, "overlapping", () -> f.setView(0, FileType.bytes(1), overlapping, "native", new Info()));
            expect(e.getMessage().contains("filetype"), e.getMessage());
            File wo = new File(w, name, MPIIO.MODE_WRONLY);
            fails(ErrorClass.ERR_IO, "overlapping", () -> wo.setView(0, FileType.bytes(1), overlapping, "native", new Info()));
            wo.close();
            f.close();
        });
        c.check("decreasing displacements are ERR_IO in every mode, read-only included", () -> {
            Datatype backwards = Datatype.Indexed(new int[]{1, 1}, new int[]{5, 0}, MPI.BYTE);
            backwards.Commit();
            File f = new File(w, name, MPIIO.MODE_RDONLY);
            fails(ErrorClass.ERR_IO, "nondecreasing", () -> f.setView(0, MPI.BYTE, backwards, "native", new Info()));
            f.close();
        });
        c.check("the file is what it was", () -> {
            w.Barrier();
            expect(java.util.Arrays.equals(file, Files.readAllBytes(p)), "file changed");
        });
    }

    /** The first {@code n} view bytes of a tiled typemap, the obvious way. */
    private static byte[] viewBytes(byte[] file, int disp, int[][] map, int extent, int n) {
        byte[] out = new byte[n];
        int k = 0;
        for (int tile = 0; k < n; tile++) {
            for (int[] b : map) {
                for (int i = 0; i < b[1] && k < n; i++) out[k++] = file[disp + tile * extent + b[0] + i];
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ item 3: ROMIO's classes where MPI names none

    private static void errors(Checks c, Intracomm w, Path dir) throws Exception {
        String name = dir.resolve("errors").toString();
        c.check("setView: ROMIO's classes (ERR_IO for bad displacements, ERR_ARG for null types and sizes)", () -> {
            File f = new File(w, name, MPIIO.MODE_RDWR | MPIIO.MODE_CREATE);
            Datatype backwards = Datatype.Indexed(new int[]{1, 1}, new int[]{5, 0}, MPI.BYTE);
            backwards.Commit();
            fails(ErrorClass.ERR_IO, "nondecreasing", () -> f.setView(0, MPI.BYTE, backwards, "native", new Info()));
            fails(ErrorClass.ERR_IO, "overlapping", () -> f.setView(0, FileType.bytes(1), Datatypes.indexed(new long[]{4, 4}, new long[]{0, 2}), "native", new Info()));
            fails(ErrorClass.ERR_IO, "non-negative", () -> f.setView(0, FileType.bytes(1), Datatypes.indexed(new long[]{4}, new long[]{-4}), "native", new Info()));
            fails(ErrorClass.ERR_ARG, "etype", () -> f.setView(0, null, MPI.BYTE, "native", new Info()));
            fails(ErrorClass.ERR_ARG, "filetype", () -> f.setView(0, MPI.BYTE, (Datatype) null, "native", new Info()));
            fails(ErrorClass.ERR_ARG, "multiple of the etype size", () -> f.setView(0, FileType.bytes(4), FileType.bytes(6), "native", new Info()));
            fails(ErrorClass.ERR_ARG, "displacement", () -> f.setView(-8, MPI.BYTE, MPI.BYTE, "native", new Info()));
            fails(ErrorClass.ERR_UNSUPPORTED_DATAREP, "datarep", () -> f.setView(0, MPI.BYTE, MPI.BYTE, "no-such-datarep", new Info()));
            f.close();
        });
        c.check("data calls: ERR_COUNT for a negative count, ERR_IO for a partial etype (ROMIO's **iobadcount, **ioetype)", () -> {
            File f = new File(w, name, MPIIO.MODE_RDWR);
            fails(ErrorClass.ERR_COUNT, "count", () -> f.writeAt(0, new byte[4], 0, -1, MPI.BYTE));
            fails(ErrorClass.ERR_COUNT, "count", () -> f.readAll(new byte[4], 0, -1, MPI.BYTE));
            fails(ErrorClass.ERR_COUNT, "count", () -> f.read(new byte[4], 0, -2, FileType.bytes(1)));
            f.setView(0, MPI.INT, MPI.INT, "native", new Info());
            fails(ErrorClass.ERR_IO, "etypes", () -> f.writeAt(0, new byte[3], 0, 3, MPI.BYTE));
            fails(ErrorClass.ERR_IO, "etypes", () -> f.readAtAll(0, new byte[3], 0, 3, MPI.BYTE));
            expectEquals(2, ErrorClass.ERR_COUNT.code(), "MPI_ERR_COUNT's number in MPICH");
            f.close();
        });
        c.check("open: ERR_COMM for a null communicator, ERR_IO for an unknown file-system scheme (ROMIO's **iofstypeunsupported)", () -> {
            fails(ErrorClass.ERR_COMM, "communicator", () -> new File(null, name, MPIIO.MODE_RDONLY));
            fails(ErrorClass.ERR_IO, "nosuchfs", () -> new File(w, "nosuchfs://x/y", MPIIO.MODE_RDWR | MPIIO.MODE_CREATE));
            fails(ErrorClass.ERR_IO, "nosuchfs", () -> File.delete("nosuchfs://x/y"));
        });
    }

    // ------------------------------------------------------------------ item 4: MPI_DISPLACEMENT_CURRENT

    private static void sequential(Checks c, Intracomm w, Path dir) throws Exception {
        int rank = w.Rank(), np = w.Size();
        String name = dir.resolve("sequential").toString();
        c.check("MODE_SEQUENTIAL: setView(DISPLACEMENT_CURRENT) starts the view at the shared pointer", () -> {
            File f = new File(w, name, MPIIO.MODE_WRONLY | MPIIO.MODE_CREATE | MPIIO.MODE_SEQUENTIAL);
            byte[] head = new byte[10];
            java.util.Arrays.fill(head, (byte) (rank + 1));
            f.writeOrdered(head, 0, 10, MPI.BYTE); // the shared pointer ends at 10 * np
            f.setView(MPIIO.DISPLACEMENT_CURRENT, MPI.INT, MPI.INT, "native", new Info());
            expectEquals(10L * np, f.getView().displacement(), "displacement taken from the shared pointer");
            expectEquals(0, f.getPositionShared(), "shared pointer after setView");
            int[] ints = {rank * 100, rank * 100 + 1};
            f.writeOrdered(ints, 0, 2, MPI.INT);
            fails(ErrorClass.ERR_ARG, "DISPLACEMENT_CURRENT", () -> f.setView(0, MPI.BYTE, MPI.BYTE, "native", new Info()));
            fails(ErrorClass.ERR_ARG, "DISPLACEMENT_CURRENT", () -> f.setView(40, MPI.BYTE, MPI.BYTE, "native", new Info()));
            // no individual file pointer on such a file (ROMIO: MPI_ERR_UNSUPPORTED_OPERATION, "**ioamodeseq")
            fails(ErrorClass.ERR_UNSUPPORTED_OPERATION, "MODE_SEQUENTIAL", () -> f.seek(0, MPIIO.SEEK_SET));
            fails(ErrorClass.ERR_UNSUPPORTED_OPERATION, "MODE_SEQUENTIAL", f::getPosition);
            fails(ErrorClass.ERR_UNSUPPORTED_OPERATION, "MODE_SEQUENTIAL", () -> f.getByteOffset(0));
            // a second one moves on from the ints just written
            f.setView(MPIIO.DISPLACEMENT_CURRENT, MPI.BYTE, MPI.BYTE, "native", new Info());
            expectEquals(10L * np + 8L * np, f.getView().displacement(), "second displacement");
            f.close();
            w.Barrier();
            byte[] all = Files.readAllBytes(Path.of(name));
            expectEquals(18L * np, all.length, "file size");
            java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(all).order(java.nio.ByteOrder.nativeOrder());
            for (int r = 0; r < np; r++) {
                for (int i = 0; i < 10; i++) expectEquals(r + 1, all[r * 10 + i], "head byte of rank " + r);
                expectEquals(r * 100, bb.getInt(10 * np + 8 * r), "first int of rank " + r);
                expectEquals(r * 100 + 1, bb.getInt(10 * np + 8 * r + 4), "second int of rank " + r);
            }
        });
        c.check("DISPLACEMENT_CURRENT on a file without MODE_SEQUENTIAL: ERR_ARG", () -> {
            File f = new File(w, name + "-plain", MPIIO.MODE_RDWR | MPIIO.MODE_CREATE);
            fails(ErrorClass.ERR_ARG, "MODE_SEQUENTIAL", () -> f.setView(MPIIO.DISPLACEMENT_CURRENT, MPI.BYTE, MPI.BYTE, "native", new Info()));
            expectEquals(0, f.getView().displacement(), "view unchanged");
            f.close();
        });
    }

    // ------------------------------------------------------------------ item 6: null buffers with count 0

    private static void nullBuffer(Checks c, Intracomm w, Path dir) throws Exception {
        String name = dir.resolve("nullbuffer").toString();
        c.check("every read and write call takes a null buffer with count 0 and moves nothing", () -> {
            File f = new File(w, name, MPIIO.MODE_RDWR | MPIIO.MODE_CREATE);
            Datatype t = MPI.INT;
            FileType ft = Datatypes.element(4);
            zero("writeAt", f.writeAt(0, null, 0, 0, t));
            zero("readAt", f.readAt(0, null, 0, 0, t));
            zero("writeAtAll", f.writeAtAll(0, null, 0, 0, t));
            zero("readAtAll", f.readAtAll(0, null, 0, 0, t));
            zero("iWriteAt", f.iWriteAt(0, null, 0, 0, t).waitFor());
            zero("iReadAt", f.iReadAt(0, null, 0, 0, t).waitFor());
            zero("iWriteAtAll", f.iWriteAtAll(0, null, 0, 0, t).waitFor());
            zero("iReadAtAll", f.iReadAtAll(0, null, 0, 0, t).waitFor());
            zero("write", f.write(null, 0, 0, t));
            zero("read", f.read(null, 0, 0, t));
            zero("writeAll", f.writeAll(null, 0, 0, t));
            zero("readAll", f.readAll(null, 0, 0, t));
            zero("iWrite", f.iWrite(null, 0, 0, t).waitFor());
            zero("iRead", f.iRead(null, 0, 0, t).waitFor());
            zero("iWriteAll", f.iWriteAll(null, 0, 0, t).waitFor());
            zero("iReadAll", f.iReadAll(null, 0, 0, t).waitFor());
            zero("writeShared", f.writeShared(null, 0, 0, t));
            zero("readShared", f.readShared(null, 0, 0, t));
            zero("iWriteShared", f.iWriteShared(null, 0, 0, t).waitFor());
            zero("iReadShared", f.iReadShared(null, 0, 0, t).waitFor());
            zero("writeOrdered", f.writeOrdered(null, 0, 0, t));
            zero("readOrdered", f.readOrdered(null, 0, 0, t));
            f.writeAllBegin(null, 0, 0, t);
            zero("writeAllEnd", f.writeAllEnd(null));
            f.readAllBegin(null, 0, 0, t);
            zero("readAllEnd", f.readAllEnd(null));
            f.writeAtAllBegin(0, null, 0, 0, t);
            zero("writeAtAllEnd", f.writeAtAllEnd(null));
            f.readAtAllBegin(0, null, 0, 0, t);
            zero("readAtAllEnd", f.readAtAllEnd(null));
            f.writeOrderedBegin(null, 0, 0, t);
            zero("writeOrderedEnd", f.writeOrderedEnd(null));
            f.readOrderedBegin(null, 0, 0, t);
            zero("readOrderedEnd", f.readOrderedEnd(null));
            zero("writeAt (pdla type)", f.writeAt(0, null, 0, 0, ft));
            zero("readAt (pdla type)", f.readAt(0, null, 0, 0, ft));
            zero("write (pdla type)", f.write(null, 0, 0, ft));
            zero("read (pdla type)", f.read(null, 0, 0, ft));
            zero("writeAll (pdla type)", f.writeAll(null, 0, 0, ft));
            zero("readAll (pdla type)", f.readAll(null, 0, 0, ft));
            expectEquals(0, f.getSize(), "file size");
            expectEquals(0, f.getPosition(), "individual pointer");
            expectEquals(0, f.getPositionShared(), "shared pointer");
            // a null buffer with something to move is still refused, naming the buffer
            fails(ErrorClass.ERR_ARG, "buffer is null", () -> f.writeAt(0, null, 0, 1, t));
            fails(ErrorClass.ERR_ARG, "buffer is null", () -> f.readAll(null, 0, 2, t));
            f.close();
        });
    }

    private static void zero(String call, IoStatus s) {
        expectEquals(0, s.getBytes(), call + " bytes");
        expectEquals(0, s.getCount(MPI.INT), call + " count");
    }

    private static MPIIOException fails(ErrorClass expected, String mustMention, Call call) throws Exception {
        try {
            call.run();
        } catch (MPIIOException e) {
            if (e.errorClass() != expected) throw new AssertionError("expected " + expected + " but got " + e.errorClass() + ": " + e.getMessage(), e);
            if (!e.getMessage().contains(mustMention)) throw new AssertionError("message does not name '" + mustMention + "': " + e.getMessage());
            return e;
        }
        throw new AssertionError("expected " + expected + " but the call succeeded");
    }
}
