package io.pdla.cli.programs;

import io.pdla.mpiio.File;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

/**
 * A read-modify-write application whose command line never changes, so every run is "the same application"
 * to PDLA: in every segment rank r owns block r (IOR's strided shape); each block holds a generation number g
 * in every byte pattern {@link #value}; a run reads each block, checks it is one whole generation, and writes
 * generation g + 1 back. Arguments: file, block size, segments, and {@code init} to create generation 0.
 * Prints "GEN rank R g=G" with the generation it read, and redirect's counts when redirect is loaded.
 */
public final class GenerationUpdate {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        int block = Integer.parseInt(args[1]), segments = Integer.parseInt(args[2]);
        boolean init = args.length > 3 && args[3].equals("init");
        File f = new File(MPI.COMM_WORLD, args[0], MPIIO.MODE_RDWR | MPIIO.MODE_CREATE);
        byte[] buf = new byte[block];
        int seen = -1;
        for (int s = 0; s < segments; s++) {
            long off = ((long) s * np + rank) * block;
            int g = 0;
            if (!init) {
                f.readAt(off, buf, 0, block, MPI.BYTE);
                g = buf[0] - value(off, 0) & 0xff;
                for (int i = 0; i < block; i++) {
                    if (buf[i] != value(off + i, g)) throw new IllegalStateException("rank " + rank + ": byte " + (off + i) + " is not generation " + g);
                }
                if (seen >= 0 && g != seen) throw new IllegalStateException("rank " + rank + ": block at " + off + " is generation " + g + ", others " + seen);
                seen = g;
                g++;
            }
            for (int i = 0; i < block; i++) buf[i] = value(off + i, g);
            f.writeAt(off, buf, 0, block, MPI.BYTE);
        }
        f.close();
        System.out.println("GEN rank " + rank + " g=" + seen);
        try {
            Class<?> stats = Class.forName("io.pdla.redirect.RedirectStats", true, GenerationUpdate.class.getClassLoader());
            Object gl = stats.getMethod("global").invoke(null);
            System.out.println("REDIRECT rank " + rank + " fromReplica=" + stats.getField("readsFromReplica").get(gl)
                    + " writtenToReplica=" + stats.getField("bytesWrittenToReplica").get(gl));
        } catch (ReflectiveOperationException noRedirect) {
            // not loaded
        }
        MPI.Finalize();
    }

    static byte value(long offset, int generation) {
        return (byte) (offset * 7 + (offset >>> 9) + generation);
    }
}
