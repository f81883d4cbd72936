package io.pdla.cli.programs;

import io.pdla.mpiio.File;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

/**
 * IOR's strided shape, written then read back: in every segment, rank r owns block r. Arguments: file,
 * block size, segments. Exits non-zero if a byte read back differs.
 */
public final class StridedIo {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        int block = Integer.parseInt(args[1]), segments = Integer.parseInt(args[2]);
        File f = new File(MPI.COMM_WORLD, args[0], MPIIO.MODE_RDWR | MPIIO.MODE_CREATE);
        byte[] buf = new byte[block];
        for (int s = 0; s < segments; s++) {
            long off = ((long) s * np + rank) * block;
            for (int i = 0; i < block; i++) buf[i] = (byte) (off + i);
            f.writeAt(off, buf, 0, block, MPI.BYTE);
        }
        f.sync();
        for (int s = 0; s < segments; s++) {
            long off = ((long) s * np + rank) * block;
            f.readAt(off, buf, 0, block, MPI.BYTE);
            for (int i = 0; i < block; i++) {
                if (buf[i] != (byte) (off + i)) throw new IllegalStateException("byte " + (off + i) + " differs");
            }
        }
        f.close();
        MPI.Finalize();
    }
}
