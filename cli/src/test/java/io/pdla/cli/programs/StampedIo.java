package io.pdla.cli.programs;

import io.pdla.intercept.Environment;
import io.pdla.mpiio.File;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One application (the command line never changes: file, block size, segments) run in phases that PDLA must not
 * tell apart, so that writes land in the replicas of its own pattern: in every segment rank r owns block r. The
 * phase comes from {@code PDLA_TEST_PHASE} (pdla passes PDLA_* variables to ranks on every host):
 * <ul>
 *   <li>{@code read}: each rank reads its blocks and checks them against {@code PDLA_TEST_EXPECT}: {@code base}
 *       ({@link #base}), {@code stamped} ({@link #stamped}) or {@code half0} (stamped in even segments); prints redirect's counts;</li>
 *   <li>{@code stamp}: each rank writes {@link #stamped} bytes into its blocks of the segments s with
 *       s % 2 == {@code PDLA_TEST_HALF}, printing {@code ACK rank R OFFSET} after each write returned; with
 *       {@code PDLA_TEST_HANG} (seconds) it then keeps the file open that long, for a test to kill its host; with {@code PDLA_TEST_RENDEZVOUS} (a directory) rank 0 first marks the
 *       half as open and waits (at most 60 s) for the other half's mark, so two jobs hold the file open for
 *       writing at the same time when they write.</li>
 * </ul>
 */
public final class StampedIo {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        int block = Integer.parseInt(args[1]), segments = Integer.parseInt(args[2]);
        String phase = Environment.get("PDLA_TEST_PHASE");
        System.out.println("HOST rank " + rank + " " + InetAddress.getLocalHost().getHostName() + " " + ProcessHandle.current().pid());
        byte[] buf = new byte[block];
        long checked = 0;
        if ("read".equals(phase)) {
            String expect = Environment.get("PDLA_TEST_EXPECT");
            File f = new File(MPI.COMM_WORLD, args[0], MPIIO.MODE_RDONLY);
            for (int s = 0; s < segments; s++) {
                long off = ((long) s * np + rank) * block;
                f.readAt(off, buf, 0, block, MPI.BYTE);
                boolean stamped = "stamped".equals(expect) || "half0".equals(expect) && s % 2 == 0;
                for (int i = 0; i < block; i++) {
                    byte want = stamped ? stamped(off + i) : base(off + i);
                    if (buf[i] != want) throw new IllegalStateException("rank " + rank + ": byte " + (off + i) + " is not " + (stamped ? "stamped" : "base"));
                }
                checked += block;
            }
            f.close();
            io.pdla.redirect.RedirectStats st = io.pdla.redirect.RedirectStats.global();
            System.out.println("REDIRECT rank " + rank + " fromReplica=" + st.readsFromReplica.get() + " mixed=" + st.readsMixed.get()
                    + " fromOriginal=" + st.readsFromOriginal.get());
        } else if ("stamp".equals(phase)) {
            int half = Integer.parseInt(Environment.get("PDLA_TEST_HALF"));
            File f = new File(MPI.COMM_WORLD, args[0], MPIIO.MODE_RDWR);
            String rendezvous = Environment.get("PDLA_TEST_RENDEZVOUS");
            if (rendezvous != null && rank == 0) {
                Files.writeString(Path.of(rendezvous, "open-" + half), "");
                Path other = Path.of(rendezvous, "open-" + (1 - half));
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (!Files.exists(other)) {
                    if (System.nanoTime() > deadline) throw new IllegalStateException("the other job never opened the file");
                    Thread.sleep(20);
                }
            }
            MPI.COMM_WORLD.Barrier();
            for (int s = half; s < segments; s += 2) {
                long off = ((long) s * np + rank) * block;
                for (int i = 0; i < block; i++) buf[i] = stamped(off + i);
                f.writeAt(off, buf, 0, block, MPI.BYTE);
                checked += block;
                System.out.println("ACK rank " + rank + " " + off);
            }
            if (Environment.get("PDLA_TEST_HANG") != null) {
                // holds the write session open until the host is killed (bounded, in case nobody does)
                System.out.println("HANGING rank " + rank);
                System.out.flush();
                Thread.sleep(Long.parseLong(Environment.get("PDLA_TEST_HANG")) * 1000);
            }
            f.close();
            io.pdla.redirect.RedirectStats st = io.pdla.redirect.RedirectStats.global();
            System.out.println("WROTE rank " + rank + " toReplica=" + st.bytesWrittenToReplica.get());
        } else {
            throw new IllegalArgumentException("PDLA_TEST_PHASE must be read or stamp, was " + phase);
        }
        System.out.println("VERIFIED rank " + rank + " " + checked);
        MPI.Finalize();
    }

    public static byte base(long offset) {
        return HostsIo.value(offset);
    }

    public static byte stamped(long offset) {
        return (byte) (HostsIo.value(offset) ^ 0xA5 ^ (offset >>> 11));
    }
}
