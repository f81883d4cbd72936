package io.pdla.cli.programs;

import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.util.Arrays;

/**
 * IOR's strided shape through a file view and collective calls with collective buffering forced on: in
 * every segment rank r owns block r; the view (displacement r * block, one block every np blocks) makes it
 * one writeAll or readAll of all the rank's blocks. Arguments: file, block size, segments, {@code write} or
 * {@code read}, and the number of aggregators (cb_nodes). {@code read} checks every byte and fails if one
 * differs. Prints "COLL rank R aggregators=[..] twoPhase=N aggregatorCalls=C aggregatorBytes=B" from the
 * shim's collective statistics, and redirect's counts when redirect is loaded.
 */
public final class CollectiveStrided {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        int block = Integer.parseInt(args[1]), segments = Integer.parseInt(args[2]);
        boolean write = args[3].equals("write");
        Info hints = new Info();
        hints.set("romio_cb_write", "enable");
        hints.set("romio_cb_read", "enable");
        hints.set("cb_nodes", args[4]);
        hints.set("pdla_min_fd_size", "1"); // every aggregator gets a domain, however small the file: the tests count them
        hints.set("cb_buffer_size", String.valueOf(2L * block));
        File f = new File(MPI.COMM_WORLD, args[0], write ? MPIIO.MODE_RDWR | MPIIO.MODE_CREATE : MPIIO.MODE_RDONLY, hints);
        f.setView((long) rank * block, FileType.bytes(1), FileType.bytes(block).resized(0, (long) np * block), "native", new Info());
        byte[] buf = new byte[block * segments];
        if (write) {
            for (int i = 0; i < buf.length; i++) buf[i] = value(offsetOf(i, rank, np, block));
            f.writeAll(buf, 0, buf.length, MPI.BYTE);
        } else {
            long got = f.readAll(buf, 0, buf.length, MPI.BYTE).getBytes();
            if (got != buf.length) throw new IllegalStateException("rank " + rank + " read " + got + " of " + buf.length + " bytes");
            for (int i = 0; i < buf.length; i++) {
                long o = offsetOf(i, rank, np, block);
                if (buf[i] != value(o)) throw new IllegalStateException("rank " + rank + ": byte " + o + " differs");
            }
        }
        System.out.println("COLL rank " + rank + " aggregators=" + Arrays.toString(f.aggregatorRanks()).replace(" ", "")
                + " twoPhase=" + f.collectiveStatistics().twoPhaseCalls() + " aggregatorCalls=" + f.collectiveStatistics().aggregatorStorageCalls()
                + " aggregatorBytes=" + f.collectiveStatistics().aggregatorStorageBytes());
        f.close();
        try {
            Class<?> stats = Class.forName("io.pdla.redirect.RedirectStats", true, CollectiveStrided.class.getClassLoader());
            Object gl = stats.getMethod("global").invoke(null);
            System.out.println("REDIRECT rank " + rank + " fromReplica=" + stats.getField("readsFromReplica").get(gl)
                    + " mixed=" + stats.getField("readsMixed").get(gl) + " fromOriginal=" + stats.getField("readsFromOriginal").get(gl)
                    + " bytesFromReplica=" + stats.getField("bytesFromReplica").get(gl));
        } catch (ReflectiveOperationException noRedirect) {
            // redirect not loaded
        }
        MPI.Finalize();
    }

    /** The file offset of byte {@code i} of the rank's buffer under its view. */
    static long offsetOf(int i, int rank, int np, int block) {
        return ((long) (i / block) * np + rank) * block + i % block;
    }

    public static byte value(long offset) {
        return (byte) (offset * 13 + (offset >>> 8) + 1);
    }
}
