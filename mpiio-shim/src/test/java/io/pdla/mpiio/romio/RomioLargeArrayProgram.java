package io.pdla.mpiio.romio;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

/**
 * ROMIO test/large_array.c, scaled: a block-distributed 3-D int array (darray filetype) written with
 * write_all and read back with read_all through the same view; every rank checks
 * {@code readbuf[i] == rank * 1024 + i}.
 *
 * <p>Scale: ROMIO's array is 1024 x 1024 x 1024 ints (a 4 GiB file, 1 GiB per rank in memory, twice);
 * under the multicore device all ranks share one JVM, so the first dimension is divided by
 * {@code -divisor} (default 8: 128 x 1024 x 1024 ints, a 512 MiB file, 128 MiB per rank). Offsets above
 * 4 GiB are exercised by the big_extents port instead.
 */
public final class RomioLargeArrayProgram {
    public static void main(String[] argv) throws Exception {
        Romio.run("large_array", argv, t -> {
            int nprocs = t.size(), mynod = t.rank();
            int divisor = Integer.parseInt(t.option("-divisor", "8"));
            int[] gsizes = {1024 / divisor, 1024, 4 * 1024 / 4};
            int[] psizes = StandardDarray.dims(nprocs, 3);
            if (mynod == 0) {
                long bytes = 4L * gsizes[0] * gsizes[1] * gsizes[2];
                System.out.println("This program creates a " + (bytes >> 20) + " MiB file (ROMIO's 4 GiB divided by " + divisor + ")");
            }
            FileType newtype = Datatypes.darrayBlock(mynod, gsizes, psizes, Datatypes.Order.C, 4);
            FileType etype = Datatypes.flatten(MPI.INT);
            int bufcount = Math.toIntExact(newtype.sizeBytes() / 4);
            t.expectEquals(StandardDarray.ownedIndices(mynod, gsizes, psizes).length, bufcount, "ints in this rank's darray type");
            int[] writebuf = new int[bufcount];
            for (int i = 0; i < bufcount; i++) writebuf[i] = mynod * 1024 + i;
            Info none = new Info();

            File fh = new File(MPI.COMM_WORLD, t.filename(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, none);
            fh.setView(0, etype, newtype, "native", none);
            fh.writeAll(writebuf, 0, bufcount, MPI.INT);
            fh.close();
            writebuf = null;

            int[] readbuf = new int[bufcount];
            fh = new File(MPI.COMM_WORLD, t.filename(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, none);
            fh.setView(0, etype, newtype, "native", none);
            fh.readAll(readbuf, 0, bufcount, MPI.INT);
            fh.close();
            for (int i = 0; i < bufcount; i++) {
                if (readbuf[i] != mynod * 1024 + i) {
                    t.error("Process " + mynod + ", readbuf[" + i + "]=" + readbuf[i] + " but expecting " + (mynod * 1024 + i));
                    break;
                }
            }
            MPI.COMM_WORLD.Barrier();
            if (mynod == 0) File.delete(t.filename());
        });
    }
}
