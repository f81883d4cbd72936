package io.pdla.mpiio.romio;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.IoStatus;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

/**
 * ROMIO test/coll_perf.c, small: a block-distributed 3-D int array (darray filetype) written once untimed
 * (write_all, seek, read_all), then write_all and read_all timed, bandwidth printed by rank 0.
 *
 * <p>Scale: ROMIO's array is (128*17) x (128*9) x (128*11) ints (14 GiB); here the 128 is an argument
 * ({@code -scale}, default 8: 136 x 72 x 88 ints, 3.3 MiB), keeping ROMIO's 17:9:11 shape. The C program
 * writes an uninitialised buffer and checks only that every call succeeds; this port also fills the buffer
 * (global row-major index) and checks the status counts and the data read back, which can only add failures.
 */
public final class RomioCollPerfProgram {
    public static void main(String[] argv) throws Exception {
        Romio.run("coll_perf", argv, t -> {
            int nprocs = t.size(), mynod = t.rank();
            int scale = Integer.parseInt(t.option("-scale", "8"));
            int[] gsizes = {scale * 17, scale * 9, scale * 11};
            int[] psizes = StandardDarray.dims(nprocs, 3);
            FileType newtype = Datatypes.darrayBlock(mynod, gsizes, psizes, Datatypes.Order.C, 4);
            FileType etype = Datatypes.flatten(MPI.INT);
            int itemCount = (int) (newtype.sizeBytes() / 4);
            long[] owned = StandardDarray.ownedIndices(mynod, gsizes, psizes);
            t.expectEquals(owned.length, itemCount, "ints in this rank's darray type");
            int[] buf = new int[itemCount];
            for (int i = 0; i < itemCount; i++) buf[i] = (int) owned[i];
            Info none = new Info();

            // to eliminate paging effects, do the operations once but don't time them
            File fh = new File(MPI.COMM_WORLD, t.filename(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, none);
            fh.setView(0, etype, newtype, "native", none);
            fh.writeAll(buf, 0, itemCount, MPI.INT);
            fh.seek(0, MPIIO.SEEK_SET);
            fh.readAll(buf, 0, itemCount, MPI.INT);
            fh.close();
            MPI.COMM_WORLD.Barrier();

            fh = new File(MPI.COMM_WORLD, t.filename(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, none);
            fh.setView(0, etype, newtype, "native", none);
            MPI.COMM_WORLD.Barrier();
            double stim = MPI.Wtime();
            IoStatus ws = fh.writeAll(buf, 0, itemCount, MPI.INT);
            double writeTim = MPI.Wtime() - stim;
            fh.close();
            t.expectEquals(itemCount, ws.getCount(), "ints written by write_all");
            double newWriteTim = max(writeTim);
            long bytes = (long) gsizes[0] * gsizes[1] * gsizes[2] * 4;
            if (mynod == 0) {
                System.out.printf("Global array size %d x %d x %d integers%n", gsizes[0], gsizes[1], gsizes[2]);
                System.out.printf("Collective write time = %f sec, Collective write bandwidth = %f Mbytes/sec%n",
                        newWriteTim, bytes / (newWriteTim * 1024.0 * 1024.0));
            }
            MPI.COMM_WORLD.Barrier();

            int[] back = new int[itemCount];
            fh = new File(MPI.COMM_WORLD, t.filename(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, none);
            fh.setView(0, etype, newtype, "native", none);
            MPI.COMM_WORLD.Barrier();
            stim = MPI.Wtime();
            IoStatus rs = fh.readAll(back, 0, itemCount, MPI.INT);
            double readTim = MPI.Wtime() - stim;
            fh.close();
            t.expectEquals(itemCount, rs.getCount(), "ints read by read_all");
            double newReadTim = max(readTim);
            if (mynod == 0) {
                System.out.printf("Collective read time = %f sec, Collective read bandwidth = %f Mbytes/sec%n",
                        newReadTim, bytes / (newReadTim * 1024.0 * 1024.0));
            }
            for (int i = 0; i < itemCount; i++) {
                if (back[i] != buf[i]) {
                    t.error("Process " + mynod + ": read " + back[i] + " at " + i + ", wrote " + buf[i]);
                    break;
                }
            }
        });
    }

    private static double max(double v) throws Exception {
        double[] in = {v}, out = new double[1];
        MPI.COMM_WORLD.Allreduce(in, 0, out, 0, 1, MPI.DOUBLE, MPI.MAX);
        return out[0];
    }
}
