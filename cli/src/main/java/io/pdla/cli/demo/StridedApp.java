package io.pdla.cli.demo;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.nio.ByteBuffer;

/**
 * The demo's application: the IOR-style fixed-stride access of the PDLA paper's evaluation: each rank reads
 * {@code segments} blocks of its own region of a shared file, one block every two (stride = 2 x block), so no
 * two ranks' data interleave and every rank's requests seek on striped HDDs. {@code write} creates the file
 * (rank 0, front to back); {@code read} reads every block back and verifies it byte for byte; {@code seqread}
 * reads each rank's whole region front to back in 4 MiB requests (the device's large sequential limit) and
 * verifies it. Prints one line per rank with the time of its whole read loop (reads and the verification
 * every run does alike) and, when the redirect interceptor is loaded, how many reads replicas served. Arguments: file, block size,
 * segments, write|read|seqread, and optionally {@code direct} (hint {@code posix_direct_io=true} and
 * direct 4 KiB-aligned buffers, so the POSIX driver bypasses the page cache).
 */
public final class StridedApp {
    private static final int ALIGN = 4096;
    public static final int SEQUENTIAL_REQUEST = 4 << 20;

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        int block = Integer.parseInt(args[1]), segments = Integer.parseInt(args[2]);
        String mode = args[3];
        boolean write = mode.equals("write"), sequential = mode.equals("seqread");
        boolean direct = args.length > 4 && args[4].equals("direct");
        Info info = new Info();
        if (direct) info.set("posix_direct_io", "true");
        File f = new File(MPI.COMM_WORLD, args[0], write ? MPIIO.MODE_WRONLY | MPIIO.MODE_CREATE : MPIIO.MODE_RDONLY, info);
        long region = 2L * block * segments;
        long bytes = 0;
        long t0 = System.nanoTime();
        if (write && rank == 0) {
            // Rank 0 writes the whole file front to back, gaps included: the one shape every store accepts
            // (HDFS files are append-only); the content is a function of the offset alone.
            byte[] buf = new byte[block];
            for (long off = 0; off < region * np; off += block) {
                for (int i = 0; i < block; i++) buf[i] = value(off + i);
                f.writeAt(off, buf, 0, block, MPI.BYTE);
            }
        } else if (sequential) {
            ByteBuffer buf = buffer(SEQUENTIAL_REQUEST, direct);
            for (long off = rank * region; off < (rank + 1) * region; off += SEQUENTIAL_REQUEST) {
                int n = (int) Math.min(SEQUENTIAL_REQUEST, (rank + 1) * region - off);
                buf.clear().limit(n);
                f.readAt(off, buf);
                verify(buf, off, n, rank);
                bytes += n;
            }
        } else if (!write) {
            ByteBuffer buf = buffer(block, direct);
            for (int s = 0; s < segments; s++) {
                long off = rank * region + 2L * block * s;
                buf.clear().limit(block);
                f.readAt(off, buf);
                verify(buf, off, block, rank);
                bytes += block;
            }
        }
        long elapsed = System.nanoTime() - t0;   // the whole loop: a background read-ahead must not hide behind untimed work
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
                write ? 0 : bytes, elapsed / 1e9, !write, served);
        MPI.Finalize();
    }

    private static ByteBuffer buffer(int size, boolean direct) {
        return direct ? ByteBuffer.allocateDirect(size + ALIGN).alignedSlice(ALIGN).limit(size) : ByteBuffer.allocate(size);
    }

    private static void verify(ByteBuffer buf, long offset, int length, int rank) {
        if (buf.position() != length) throw new IllegalStateException("rank " + rank + ": read " + buf.position() + " of " + length + " bytes at " + offset);
        for (int i = 0; i < length; i++) {
            if (buf.get(i) != value(offset + i)) throw new IllegalStateException("rank " + rank + ": byte " + (offset + i) + " differs");
        }
    }

    static byte value(long offset) {
        return (byte) (offset * 131 + (offset >>> 11));
    }
}
