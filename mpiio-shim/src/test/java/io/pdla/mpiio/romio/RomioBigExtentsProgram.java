package io.pdla.mpiio.romio;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.Datatype;
import mpi.MPI;

/**
 * ROMIO test/big_extents.c: filetypes of 1, 3 and 6 GiB extent (contiguous copies of a 1 MiB-extent
 * indexed type of two ints, and 2-D int subarrays of 256x256 in 16Ki x 16Ki, 16Ki x 48Ki and 16Ki x 96Ki
 * arrays). With a view at rank * 4 of each type, every rank writes one int canary at view offset
 * size(type), i.e. at the start of the type's second instance, independently and then collectively; it
 * is read back at int offset extent / 4 + rank of the default view. Files are sparse (up to 6 GiB + 16
 * bytes of apparent size), deleted by rank 0 after each type passes.
 *
 * <p>MPJ has no subarray constructor: those three types are pdla's {@link Datatypes#subarray}.
 */
public final class RomioBigExtentsProgram {
    public static void main(String[] argv) throws Exception {
        Romio.run("big_extents", argv, t -> {
            Datatype baseindex = Datatype.Indexed(new int[]{1, 1}, new int[]{0, 1024 * 256 - 1}, MPI.INT);
            baseindex.Commit();
            Datatype indexed1G = Datatype.Contiguous(1024, baseindex);
            indexed1G.Commit();
            Datatype indexed3G = Datatype.Contiguous(3072, baseindex);
            indexed3G.Commit();
            Datatype indexed6G = Datatype.Contiguous(6144, baseindex);
            indexed6G.Commit();

            int[] sizes = {1024 * 16, 1024 * 16}, subs = {256, 256}, starts = {0, 0};
            FileType subarray1G = Datatypes.subarray(sizes, subs, starts, Datatypes.Order.C, 4);
            sizes[1] = 1024 * 16 * 3;
            FileType subarray3G = Datatypes.subarray(sizes, subs, starts, Datatypes.Order.C, 4);
            sizes[1] = 1024 * 16 * 6;
            FileType subarray6G = Datatypes.subarray(sizes, subs, starts, Datatypes.Order.C, 4);

            long gib = 1024L * 1024 * 1024;
            testtype(t, "indexed1G", Datatypes.flatten(indexed1G), gib);
            testtype(t, "indexed3G", Datatypes.flatten(indexed3G), 3 * gib);
            testtype(t, "indexed6G", Datatypes.flatten(indexed6G), 6 * gib);
            testtype(t, "subarray1G", subarray1G, gib);
            testtype(t, "subarray3G", subarray3G, 3 * gib);
            testtype(t, "subarray6G", subarray6G, 6 * gib);
        });
    }

    private static void testtype(Romio t, String name, FileType type, long expectedExtent) throws Exception {
        if (t.rank() == 0) {
            System.out.printf("dtype %s: lb = %d extent = %d size = %d...%n", name, type.lbBytes(), type.extentBytes(), type.sizeBytes());
        }
        if (verifyType(t, type, expectedExtent, false) != 0) t.error("type " + name + " failed indep");
        else if (t.rank() == 0) System.out.println(name + " indep: OK");
        if (verifyType(t, type, expectedExtent, true) != 0) t.error("type " + name + " failed collective");
        else if (t.rank() == 0) System.out.println(name + " coll: OK");
    }

    private static int verifyType(Romio t, FileType type, long expectedExtent, boolean coll) throws Exception {
        int rank = t.rank();
        String filename = t.filename();
        File fh = new File(MPI.COMM_WORLD, filename, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, new Info());
        fh.setView(rank * 4L, FileType.bytes(1), type, "native", new Info());
        long tsize = type.sizeBytes();
        int[] canary = {rank + 1000000};
        // skip over first instance of type
        if (coll) fh.writeAtAll(tsize, canary, 0, 1, MPI.INT);
        else fh.writeAt(tsize, canary, 0, 1, MPI.INT);
        fh.setView(0, Datatypes.flatten(MPI.INT), Datatypes.flatten(MPI.INT), "native", new Info());
        int[] compare = {-1};
        if (coll) fh.readAtAll(expectedExtent / 4 + rank, compare, 0, 1, MPI.INT);
        else fh.readAt(expectedExtent / 4 + rank, compare, 0, 1, MPI.INT);
        int[] errs = {compare[0] != canary[0] ? 1 : 0}, total = new int[1];
        MPI.COMM_WORLD.Allreduce(errs, 0, total, 0, 1, MPI.INT, MPI.SUM);
        fh.close();
        if (total[0] != 0) {
            System.out.println(rank + ": got " + compare[0] + " expected " + canary[0]);
        } else if (rank == 0) {
            File.delete(filename);
        }
        return total[0];
    }
}
