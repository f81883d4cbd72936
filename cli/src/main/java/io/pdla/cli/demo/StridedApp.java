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
 * verifies it. Prints one line per rank with the time of its read loop (started by all ranks at a barrier; the
 * reads alone: the bytes are verified after it) and, when the redirect interceptor is loaded, how many reads replicas served. Arguments: file, block size,
 * segments, write|read|seqread, and optionally {@code direct} (hint {@code posix_direct_io=true} and
 * direct 4 KiB-aligned buffers, so the POSIX driver bypasses the page cache).
 */
public final class StridedApp {
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
        long t0 = System.nanoTime(), elapsed = 0;
        if (write && rank == 0) {
            // Rank 0 writes the whole file front to back, gaps included: the one shape every store accepts
            // (HDFS files are append-only); the content is a function of the offset alone.
            byte[] buf = new byte[block];
            for (long off = 0; off < region * np; off += block) {
                for (int i = 0; i < block; i++) buf[i] = value(off + i);
                f.writeAt(off, buf, 0, block, MPI.BYTE);
            }
            elapsed = System.nanoTime() - t0;
        } else if (!write) {
            ReadPlan plan = sequential ? ReadPlan.sequential(rank * region, region) : ReadPlan.strided(rank * region, block, segments);
            // Every request lands in its own slice of one buffer, verified once the clock has stopped: the time
            // is the reads alone, and a background read-ahead cannot hide behind untimed work because the loop
            // ends only when the last read has returned its bytes.
            ByteBuffer all = buffer(plan.bytes(), direct);
            // All ranks start together (as IOR does): otherwise a short run whose ranks start at different
            // moments gets the device to itself rank by rank, and bytes / slowest rank's time overstates it.
            MPI.COMM_WORLD.Barrier();
            t0 = System.nanoTime();
            for (int r = 0; r < plan.requests(); r++) {
                ByteBuffer slice = all.slice(plan.bufferPosition(r), plan.length(r));
                f.readAt(plan.fileOffset(r), slice);
                if (slice.hasRemaining()) {
                    throw new IllegalStateException("rank " + rank + ": read " + slice.position() + " of " + plan.length(r) + " bytes at " + plan.fileOffset(r));
                }
            }
            elapsed = System.nanoTime() - t0;
            for (int r = 0; r < plan.requests(); r++) verify(all, plan.bufferPosition(r), plan.fileOffset(r), plan.length(r), rank);
            bytes = plan.bytes();
        }
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
        // whole pages, cut to size: an aligned slice of an allocation that starts on a page is a page longer (a limit
        // would not survive a clear()), and one of a size that is not whole pages may be shorter (IterativeReader.alignedDirect)
        return direct ? IterativeReader.alignedDirect(size) : ByteBuffer.allocate(size);
    }

    private static void verify(ByteBuffer all, int position, long offset, int length, int rank) {
        for (int i = 0; i < length; i++) {
            if (all.get(position + i) != value(offset + i)) throw new IllegalStateException("rank " + rank + ": byte " + (offset + i) + " differs");
        }
    }

    /** A rank's requests: where each starts in the file and in the buffer that receives them all. */
    private record ReadPlan(long start, int request, long step, int requests, int bytes) {
        static ReadPlan strided(long start, int block, int segments) {
            return new ReadPlan(start, block, 2L * block, segments, Math.multiplyExact(block, segments));
        }

        static ReadPlan sequential(long start, long length) {
            if (length > Integer.MAX_VALUE) throw new IllegalArgumentException("a rank's region of " + length + " bytes exceeds one buffer (2 GiB)");
            return new ReadPlan(start, SEQUENTIAL_REQUEST, SEQUENTIAL_REQUEST, (int) ((length + SEQUENTIAL_REQUEST - 1) / SEQUENTIAL_REQUEST), (int) length);
        }

        long fileOffset(int r) {
            return start + r * step;
        }

        int bufferPosition(int r) {
            return r * request;
        }

        int length(int r) {
            return Math.min(request, bytes - bufferPosition(r));
        }
    }

    static byte value(long offset) {
        return (byte) (offset * 131 + (offset >>> 11));
    }
}
