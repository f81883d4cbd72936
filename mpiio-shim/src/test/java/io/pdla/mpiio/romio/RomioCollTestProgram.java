package io.pdla.mpiio.romio;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

/**
 * ROMIO test/coll_test.c: a 32x32x32 int array block-distributed over a 3-D process grid
 * (MPI_Dims_create) with a darray filetype; every rank writes its part with write_all (each element holds
 * its global row-major index), rank 0 reads the whole file independently and checks file[i] == i, then
 * every rank reads its part back with read_all through the same view and compares.
 *
 * <p>MPJ has no darray constructor: the filetype is pdla's {@link Datatypes#darrayBlock}; the C test finds
 * which global indices a rank owns by receiving into the darray type, here they come from the standard's
 * definition ({@link StandardDarray}), and the C test's check that both agree in count is kept.
 */
public final class RomioCollTestProgram {
    public static void main(String[] argv) throws Exception {
        Romio.run("coll_test", argv, t -> {
            int nprocs = t.size(), mynod = t.rank();
            int[] gsizes = {32, 32, 32};
            int[] psizes = StandardDarray.dims(nprocs, 3);
            FileType newtype = Datatypes.darrayBlock(mynod, gsizes, psizes, Datatypes.Order.C, 4);
            int itemCount = (int) (newtype.sizeBytes() / 4);

            long[] owned = StandardDarray.ownedIndices(mynod, gsizes, psizes);
            if (owned.length != itemCount) {
                throw new IllegalStateException("Error in initializing writebuf on process " + mynod + ": darray type holds "
                        + itemCount + " ints, the standard's block distribution " + owned.length);
            }
            int[] writebuf = new int[itemCount];
            for (int j = 0; j < itemCount; j++) writebuf[j] = (int) owned[j];
            int arraySize = gsizes[0] * gsizes[1] * gsizes[2];
            Info info = new Info();

            File fh = new File(MPI.COMM_WORLD, t.filename(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, info);
            fh.setView(0, Datatypes.flatten(MPI.INT), newtype, "native", info);
            fh.writeAll(writebuf, 0, itemCount, MPI.INT);
            fh.close();

            if (mynod == 0) {
                // rank 0 reads the entire file, so a view shared by write and read cannot hide an error
                fh = new File(MPI.COMM_SELF, t.filename(), MPIIO.MODE_RDONLY, info);
                int[] readbuf = new int[arraySize];
                fh.read(readbuf, 0, arraySize, MPI.INT);
                fh.close();
                for (int i = 0; i < arraySize; i++) {
                    if (readbuf[i] != i) {
                        t.error("Error: write integer " + i + " but read " + readbuf[i]);
                        break;
                    }
                }
            }
            MPI.COMM_WORLD.Barrier();

            int[] readbuf = new int[itemCount];
            fh = new File(MPI.COMM_WORLD, t.filename(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, info);
            fh.setView(0, Datatypes.flatten(MPI.INT), newtype, "native", info);
            fh.readAll(readbuf, 0, itemCount, MPI.INT);
            fh.close();
            for (int i = 0; i < itemCount; i++) {
                if (readbuf[i] != writebuf[i]) t.error("Process " + mynod + ", readbuf " + readbuf[i] + ", writebuf " + writebuf[i] + ", i " + i);
            }
        });
    }
}
