package io.pdla.mpiio.romio;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.ErrorClass;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.MPI;

/**
 * ROMIO's test/split_coll.c: a 32x32x32 int array BLOCK-distributed (darray, default dargs) over an
 * MPI_Dims_create grid, written with write_all_begin/end and read back with read_all_begin/end. Each
 * rank's data are the global indices it owns, which ROMIO derives by receiving ones through the darray
 * type; here from the typemap, in the same order. Also the standard's rule the C test cannot show: a second
 * split collective begun on the handle is an error (ROMIO: MPI_ERR_IO) and leaves the first intact.
 */
public final class RomioSplitCollProgram {
    public static void main(String[] argv) throws Exception {
        RomioCallsSupport.run(argv, "split_coll", t -> {
            String filename = t.fname();
            int nprocs = t.np, mynod = t.rank;
            int[] gsizes = {32, 32, 32};
            Datatypes.Distribution[] distribs = {Datatypes.Distribution.BLOCK, Datatypes.Distribution.BLOCK, Datatypes.Distribution.BLOCK};
            int[] dargs = {Datatypes.DFLT_DARG, Datatypes.DFLT_DARG, Datatypes.DFLT_DARG};
            int[] psizes = RomioCallsSupport.dimsCreate(nprocs, 3);
            FileType newtype = Datatypes.darray(nprocs, mynod, gsizes, distribs, dargs, psizes, Datatypes.Order.C, 4);
            int bufcount = (int) (newtype.sizeBytes() / 4);
            int[] writebuf = new int[bufcount];
            // the Irecv of ones through newtype marks the owned indices; writebuf lists them in index order
            int arraySize = 32 * 32 * 32;
            int[] tmpbuf = new int[arraySize];
            for (int b = 0; b < newtype.blockCount(); b++) {
                for (long off = newtype.displacement(b); off < newtype.displacement(b) + newtype.length(b); off += 4) tmpbuf[(int) (off / 4)] = 1;
            }
            int j = 0;
            for (int i = 0; i < arraySize; i++) if (tmpbuf[i] != 0) writebuf[j++] = i;
            if (j != bufcount) throw new IllegalStateException("Error in initializing writebuf on process " + mynod);

            int RW = MPIIO.MODE_CREATE | MPIIO.MODE_RDWR;
            File fh = new File(MPI.COMM_WORLD, filename, RW);
            fh.setView(0, Datatypes.element(4), newtype, "native", null);
            fh.writeAllBegin(writebuf, 0, bufcount, MPI.INT);
            try {
                fh.readAllBegin(new int[bufcount], 0, bufcount, MPI.INT);
                t.error("a second split collective on the handle was accepted");
            } catch (MPIIOException e) {
                if (e.errorClass() != ErrorClass.ERR_IO) t.error("second split collective raised " + e.errorClass() + ", expected ERR_IO");
            }
            fh.writeAllEnd(writebuf);
            fh.close();

            int[] readbuf = new int[bufcount];
            fh = new File(MPI.COMM_WORLD, filename, RW);
            fh.setView(0, Datatypes.element(4), newtype, "native", null);
            fh.readAllBegin(readbuf, 0, bufcount, MPI.INT);
            fh.readAllEnd(readbuf);
            fh.close();
            for (int i = 0; i < bufcount; i++) {
                if (readbuf[i] != writebuf[i]) t.error("readbuf " + readbuf[i] + ", writebuf " + writebuf[i] + ", i " + i);
            }
        });
    }
}
