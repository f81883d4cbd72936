package io.pdla.cli.programs;

import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.net.InetAddress;

/**
 * A job across hosts: IOR's strided shape (in every segment rank r owns block r) where each rank checks bytes a
 * rank on another host wrote. Arguments: file, block size, segments, mode:
 * <ul>
 *   <li>{@code write}: each rank writes its blocks independently, then, after a barrier, reads and checks the
 *       blocks of rank (r + 2) % np (with two ranks a host, a rank of the next host);</li>
 *   <li>{@code collective}: the same through a strided view with writeAll, then readAll of rank (r + 2) % np's
 *       blocks through that rank's view, collective buffering forced on so aggregators move other hosts' bytes;</li>
 *   <li>{@code read}: each rank reads and checks its own blocks, then prints redirect's counts (a PDLA loop run).</li>
 * </ul>
 * Prints {@code HOST rank R HOSTNAME PID} first and {@code VERIFIED rank R BYTES} when every byte matched; any
 * differing byte ends the rank with an exception naming it.
 */
public final class HostsIo {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        int block = Integer.parseInt(args[1]), segments = Integer.parseInt(args[2]);
        String mode = args[3];
        System.out.println("HOST rank " + rank + " " + InetAddress.getLocalHost().getHostName() + " " + ProcessHandle.current().pid());
        int peer = (rank + 2) % np;
        long verified;
        switch (mode) {
            case "write" -> {
                File f = new File(MPI.COMM_WORLD, args[0], MPIIO.MODE_RDWR | MPIIO.MODE_CREATE);
                byte[] buf = new byte[block];
                for (int s = 0; s < segments; s++) {
                    long off = ((long) s * np + rank) * block;
                    for (int i = 0; i < block; i++) buf[i] = value(off + i);
                    f.writeAt(off, buf, 0, block, MPI.BYTE);
                }
                f.sync();
                MPI.COMM_WORLD.Barrier();
                verified = readBlocks(f, peer, np, block, segments);
                f.close();
            }
            case "collective" -> {
                Info hints = new Info();
                hints.set("romio_cb_write", "enable");
                hints.set("romio_cb_read", "enable");
                hints.set("cb_buffer_size", String.valueOf(2L * block));
                File f = new File(MPI.COMM_WORLD, args[0], MPIIO.MODE_RDWR | MPIIO.MODE_CREATE, hints);
                f.setView((long) rank * block, FileType.bytes(1), FileType.bytes(block).resized(0, (long) np * block), "native", new Info());
                byte[] buf = new byte[block * segments];
                for (int i = 0; i < buf.length; i++) buf[i] = value(offsetOf(i, rank, np, block));
                f.writeAll(buf, 0, buf.length, MPI.BYTE);
                f.setView((long) peer * block, FileType.bytes(1), FileType.bytes(block).resized(0, (long) np * block), "native", new Info());
                java.util.Arrays.fill(buf, (byte) 0);
                long got = f.readAll(buf, 0, buf.length, MPI.BYTE).getBytes();
                if (got != buf.length) throw new IllegalStateException("rank " + rank + " read " + got + " of " + buf.length + " bytes");
                for (int i = 0; i < buf.length; i++) {
                    long o = offsetOf(i, peer, np, block);
                    if (buf[i] != value(o)) throw new IllegalStateException("rank " + rank + ": byte " + o + " differs");
                }
                verified = buf.length;
                System.out.println("COLL rank " + rank + " twoPhase=" + f.collectiveStatistics().twoPhaseCalls()
                        + " aggregators=" + java.util.Arrays.toString(f.aggregatorRanks()).replace(" ", ""));
                f.close();
            }
            case "read" -> {
                File f = new File(MPI.COMM_WORLD, args[0], MPIIO.MODE_RDONLY);
                verified = readBlocks(f, rank, np, block, segments);
                f.close();
                io.pdla.redirect.RedirectStats st = io.pdla.redirect.RedirectStats.global();
                System.out.println("REDIRECT rank " + rank + " fromReplica=" + st.readsFromReplica.get() + " mixed=" + st.readsMixed.get()
                        + " fromOriginal=" + st.readsFromOriginal.get());
            }
            default -> throw new IllegalArgumentException("mode " + mode);
        }
        System.out.println("VERIFIED rank " + rank + " " + verified);
        MPI.Finalize();
    }

    private static long readBlocks(File f, int owner, int np, int block, int segments) throws Exception {
        byte[] buf = new byte[block];
        for (int s = 0; s < segments; s++) {
            long off = ((long) s * np + owner) * block;
            java.util.Arrays.fill(buf, (byte) 0);
            f.readAt(off, buf, 0, block, MPI.BYTE);
            for (int i = 0; i < block; i++) {
                if (buf[i] != value(off + i)) throw new IllegalStateException("byte " + (off + i) + " (rank " + owner + "'s) differs");
            }
        }
        return (long) block * segments;
    }

    static long offsetOf(int i, int rank, int np, int block) {
        return ((long) (i / block) * np + rank) * block + i % block;
    }

    /** Not periodic in 256 or in the block size, so a block landing at another offset is caught. */
    public static byte value(long offset) {
        long x = offset * 0x9E3779B97F4A7C15L;
        return (byte) (x >>> 56 ^ offset >>> 8 ^ offset >>> 17);
    }
}
