package io.pdla.cli.demo;

import io.pdla.mpiio.File;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

/**
 * The demo's application: the IOR-style fixed-stride access of the PDLA paper's evaluation: each rank reads
 * {@code segments} blocks of its own region of a shared file, one block every two (stride = 2 x block), so no
 * two ranks' data interleave and every rank's requests seek on striped HDDs. {@code write}
 * creates the file (rank 0, front to back); {@code read} reads every block back and verifies it byte for byte. Prints one line per
 * rank with its read time and, when the redirect interceptor is loaded, how many reads replicas served.
 * Arguments: file, block size, segments, write|read.
 */
public final class StridedApp {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        int block = Integer.parseInt(args[1]), segments = Integer.parseInt(args[2]);
        boolean write = args[3].equals("write");
        File f = new File(MPI.COMM_WORLD, args[0], write ? MPIIO.MODE_WRONLY | MPIIO.MODE_CREATE : MPIIO.MODE_RDONLY);
        byte[] buf = new byte[block];
        long t0 = System.nanoTime();
        long region = 2L * block * segments;
        if (write && rank == 0) {
            // Rank 0 writes the whole file front to back, gaps included: the one shape every store accepts
            // (HDFS files are append-only); the content is a function of the offset alone.
            for (long off = 0; off < region * np; off += block) {
                for (int i = 0; i < block; i++) buf[i] = value(off + i);
                f.writeAt(off, buf, 0, block, MPI.BYTE);
            }
        }
        for (int s = 0; s < segments && !write; s++) {
            long off = rank * region + 2L * block * s;
            f.readAt(off, buf, 0, block, MPI.BYTE);
            for (int i = 0; i < block; i++) {
                if (buf[i] != value(off + i)) throw new IllegalStateException("rank " + rank + ": byte " + (off + i) + " differs");
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        f.close();
        String served = "";
        try {
            Class<?> stats = Class.forName("io.pdla.redirect.RedirectStats", true, StridedApp.class.getClassLoader());
            Object g = stats.getMethod("global").invoke(null);
            served = " servedByReplica=" + stats.getField("readsFromReplica").get(g) + " servedByOriginal=" + stats.getField("readsFromOriginal").get(g);
        } catch (ReflectiveOperationException noRedirect) {
            // redirect not on the class path: nothing to report
        }
        System.out.printf("APP rank %d %s %d bytes in %.4f s verified=%s%s%n", rank, write ? "wrote" : "read",
                (long) block * segments, seconds, !write, served);
        MPI.Finalize();
    }

    static byte value(long offset) {
        return (byte) (offset * 131 + (offset >>> 11));
    }
}
