package io.pdla.cli.programs;

import io.pdla.mpiio.File;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

/**
 * IOR's strided shape, written then read back: in every segment, rank r owns block r. Arguments: file,
 * block size, segments, and optionally {@code read} to only read back and verify (a "run 2"), which then
 * prints how many reads the redirect layer served from replicas. Fails if a byte read back differs.
 */
public final class StridedIo {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        int block = Integer.parseInt(args[1]), segments = Integer.parseInt(args[2]);
        boolean readOnly = args.length > 3 && args[3].equals("read");
        File f = new File(MPI.COMM_WORLD, args[0], readOnly ? MPIIO.MODE_RDONLY : MPIIO.MODE_RDWR | MPIIO.MODE_CREATE);
        byte[] buf = new byte[block];
        if (!readOnly) {
            for (int s = 0; s < segments; s++) {
                long off = ((long) s * np + rank) * block;
                for (int i = 0; i < block; i++) buf[i] = (byte) (off + i);
                f.writeAt(off, buf, 0, block, MPI.BYTE);
            }
            f.sync();
        }
        for (int s = 0; s < segments; s++) {
            long off = ((long) s * np + rank) * block;
            f.readAt(off, buf, 0, block, MPI.BYTE);
            for (int i = 0; i < block; i++) {
                if (buf[i] != (byte) (off + i)) throw new IllegalStateException("byte " + (off + i) + " differs");
            }
        }
        f.close();
        if (readOnly) {
            io.pdla.redirect.RedirectStats st = io.pdla.redirect.RedirectStats.global();
            System.out.println("REDIRECT rank " + rank + " fromReplica=" + st.readsFromReplica.get() + " mixed=" + st.readsMixed.get()
                    + " fromOriginal=" + st.readsFromOriginal.get());
        }
        MPI.Finalize();
    }
}
