package io.pdla.mpiio.romio;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * ROMIO test/aggregation1.c (John Bent, ROMIO req #835: aggregation mishandled some patterns when
 * collective buffering was forced): every rank writes four 1 MiB objects at rank * 4 MiB + k MiB with
 * write_at_all, each holding "Hello from <rank> at <offset>\n" then zeros, and reads them back with
 * read_at_all, comparing each object. With {@code -hints} (ROMIO's {@code -h}, which MPJ's starter would take as its own help flag; runtests passes it) the hints force
 * aggregation: romio_cb_write=enable, romio_no_indep_rw=1, cb_nodes=1, cb_buffer_size=4194304.
 */
public final class RomioAggregation1Program {
    static final int NUM_OBJS = 4;
    static final int OBJ_SIZE = 1048576;

    public static void main(String[] argv) throws Exception {
        Romio.run("aggregation1", argv, t -> {
            int rank = t.rank();
            Info info = new Info();
            if (t.option("-hints")) {
                info.set("romio_cb_write", "enable");
                info.set("romio_no_indep_rw", "1");
                info.set("cb_nodes", "1");
                info.set("cb_buffer_size", "4194304");
            }
            String target = t.filename();
            byte[] buffer = new byte[OBJ_SIZE];
            File wfh = new File(MPI.COMM_WORLD, target, MPIIO.MODE_WRONLY | MPIIO.MODE_CREATE, info);
            for (int i = 0; i < NUM_OBJS; i++) {
                long offset = offset(rank, i);
                fill(buffer, rank, offset);
                wfh.writeAtAll(offset, buffer, 0, OBJ_SIZE, MPI.BYTE);
            }
            wfh.close();

            byte[] verify = new byte[OBJ_SIZE];
            int corrupt = 0;
            File rfh = new File(MPI.COMM_WORLD, target, MPIIO.MODE_RDONLY, info);
            for (int i = 0; i < NUM_OBJS; i++) {
                long offset = offset(rank, i);
                fill(verify, rank, offset);
                rfh.readAtAll(offset, buffer, 0, OBJ_SIZE, MPI.BYTE);
                if (!Arrays.equals(verify, buffer)) {
                    corrupt++;
                    t.error("Corruption at " + offset);
                }
            }
            rfh.close();
            int[] in = {corrupt}, sum = new int[1];
            MPI.COMM_WORLD.Reduce(in, 0, sum, 0, 1, MPI.INT, MPI.SUM, 0);
            if (rank == 0 && sum[0] != 0) System.out.println(sum[0] + "/" + t.size() * NUM_OBJS + " blocks corrupt");
        });
    }

    static long offset(int rank, int which) {
        return (long) rank * NUM_OBJS * OBJ_SIZE + (long) which * OBJ_SIZE;
    }

    static void fill(byte[] buffer, int rank, long offset) {
        Arrays.fill(buffer, (byte) 0);
        byte[] s = ("Hello from " + rank + " at " + offset + "\n").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(s, 0, buffer, 0, s.length);
    }
}
