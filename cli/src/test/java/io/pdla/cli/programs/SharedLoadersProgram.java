package io.pdla.cli.programs;

import io.pdla.mpiio.File;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.util.Arrays;

/**
 * Each rank says which class loader defined a few of pdla's classes ("LOADER rank name loader system|rank|other"),
 * then writes its blocks of a strided file, reads another rank's blocks back independently and its own collectively,
 * and checks every byte ("DATA rank ok" or "DATA rank BAD ..."). Argument: the data file.
 */
public final class SharedLoadersProgram {
    /**
     * Classes of the shared set (core's storage and chain, the tracer's runtime, the online matcher, the collective
     * engine and its shared-memory exchange) and the shim's own (File, the collective engine's MPJ transport).
     */
    public static final String[] CLASSES = {"io.pdla.storage.StorageFile", "io.pdla.intercept.InterceptorChain",
            "io.pdla.tracer.runtime.RankTracer", "io.pdla.patterns.template.StreamMatcher", "io.pdla.collective.TwoPhaseEngine",
            "io.pdla.collective.SharedMemoryExchange", "io.pdla.straight.StraightPath", "io.pdla.mpiio.File",
            "io.pdla.mpiio.collective.MpjExchange"};
    private static final int BLOCK = 4096, BLOCKS = 32;

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        ClassLoader mine = SharedLoadersProgram.class.getClassLoader();
        for (String name : CLASSES) {
            ClassLoader l = Class.forName(name, false, mine).getClassLoader();
            String kind = l == ClassLoader.getSystemClassLoader() ? "system" : l == mine ? "rank" : "other";
            System.out.println("LOADER " + rank + " " + name + " " + (l == null ? "boot" : Integer.toHexString(System.identityHashCode(l))) + " " + kind);
        }
        String problem = null;
        File f = new File(MPI.COMM_WORLD, args[0], MPIIO.MODE_CREATE | MPIIO.MODE_RDWR);
        for (int b = 0; b < BLOCKS; b++) {
            long off = ((long) b * np + rank) * BLOCK;
            f.writeAt(off, block(off), 0, BLOCK, MPI.BYTE);
        }
        f.close();
        MPI.COMM_WORLD.Barrier();
        f = new File(MPI.COMM_WORLD, args[0], MPIIO.MODE_RDONLY);
        int other = (rank + 1) % np;
        for (int b = 0; b < BLOCKS && problem == null; b++) {
            long off = ((long) b * np + other) * BLOCK;
            byte[] got = new byte[BLOCK];
            f.readAt(off, got, 0, BLOCK, MPI.BYTE);
            if (!Arrays.equals(block(off), got)) problem = "independent read of rank " + other + "'s block at " + off;
        }
        for (int b = 0; b < BLOCKS && problem == null; b++) {
            long off = ((long) b * np + rank) * BLOCK;
            byte[] got = new byte[BLOCK];
            f.readAtAll(off, got, 0, BLOCK, MPI.BYTE);
            if (!Arrays.equals(block(off), got)) problem = "collective read of the block at " + off;
        }
        f.close();
        System.out.println("DATA " + rank + (problem == null ? " ok" : " BAD " + problem));
        MPI.Finalize();
    }

    /** Bytes that differ per offset, so a block read from the wrong place never matches. */
    static byte[] block(long off) {
        byte[] b = new byte[BLOCK];
        for (int i = 0; i < BLOCK; i++) b[i] = (byte) ((off + i) * 31 + ((off + i) >>> 12));
        return b;
    }
}
