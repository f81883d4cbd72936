package io.pdla.mpiio.romio;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

/**
 * ROMIO test/aggregation2.c: with romio_cb_write=enable and cb_nodes=1 every rank writes 512 ints of
 * 10000 + rank at rank * 2048 bytes with write_at_all, reopens read-only and reads them back with
 * read_at_all.
 */
public final class RomioAggregation2Program {
    static final int BUFSIZE = 512;

    public static void main(String[] argv) throws Exception {
        Romio.run("aggregation2", argv, t -> {
            int rank = t.rank();
            Info info = new Info().set("romio_cb_write", "enable").set("cb_nodes", "1");
            int[] buffer = new int[BUFSIZE], buf2 = new int[BUFSIZE];
            java.util.Arrays.fill(buffer, 10000 + rank);
            long off = (long) rank * BUFSIZE * 4;
            File fh = new File(MPI.COMM_WORLD, t.filename(), MPIIO.MODE_WRONLY | MPIIO.MODE_CREATE, info);
            fh.writeAtAll(off, buffer, 0, BUFSIZE, MPI.INT);
            fh.close();
            fh = new File(MPI.COMM_WORLD, t.filename(), MPIIO.MODE_RDONLY, info);
            fh.readAtAll(off, buf2, 0, BUFSIZE, MPI.INT);
            fh.close();
            int errs = 0;
            for (int i = 0; i < BUFSIZE; i++) if (buf2[i] != 10000 + rank) errs++;
            if (errs > 0) t.error(errs + " of " + BUFSIZE + " ints read back are not " + (10000 + rank));
        });
    }
}
