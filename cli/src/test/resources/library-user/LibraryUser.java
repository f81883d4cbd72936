import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.MPI;

/**
 * An MPJ application that links the pdla library the way a user would: compiled and run against the library
 * jars and mpj.jar only (LibraryJarsIT). Each rank writes every np-th block of a shared file through a view,
 * reads it back, and rank 0 then reads the whole file and checks who wrote each block. An hdfs: name must be
 * refused with a clear error, as no HDFS driver is installed. Rank 0 prints PASS when everything checks out.
 */
public class LibraryUser {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        int block = 4096, rounds = 16;
        String problem = null;

        File f = new File(MPI.COMM_WORLD, args[0], MPIIO.MODE_RDWR | MPIIO.MODE_CREATE);
        FileType stripe = Datatypes.vector(1, block, block).resized(0, (long) block * np);
        f.setView((long) rank * block, FileType.bytes(1), stripe, "native", new Info());
        byte[] data = new byte[block * rounds];
        for (int i = 0; i < data.length; i++) data[i] = mark(rank, i / block, i % block);
        f.writeAll(data, 0, data.length, MPI.BYTE);
        f.seek(0, MPIIO.SEEK_SET);
        byte[] back = new byte[data.length];
        f.readAll(back, 0, back.length, MPI.BYTE);
        if (!java.util.Arrays.equals(data, back)) problem = "rank " + rank + " read back other bytes than it wrote";
        f.close();

        if (rank == 0) {
            File whole = new File(MPI.COMM_SELF, args[0], MPIIO.MODE_RDONLY);
            long size = whole.getSize();
            byte[] all = new byte[(int) size];
            whole.readAt(0, all, 0, all.length, MPI.BYTE);
            whole.close();
            if (size != (long) block * rounds * np) problem = "file size " + size + ", expected " + (long) block * rounds * np;
            for (int b = 0; problem == null && b < all.length / block; b++) {
                int writer = b % np, round = b / np;
                for (int k = 0; k < block; k++) {
                    if (all[b * block + k] != mark(writer, round, k)) {
                        problem = "block " + b + " byte " + k + " is not rank " + writer + "'s";
                        break;
                    }
                }
            }
            try {
                new File(MPI.COMM_SELF, "hdfs://namenode:8020/x", MPIIO.MODE_RDONLY).close();
                problem = "an hdfs: file opened without the HDFS driver";
            } catch (MPIIOException expected) {
                System.out.println("without the HDFS driver: " + expected.getMessage());
            }
        }
        int[] ok = {problem == null ? 1 : 0};
        MPI.COMM_WORLD.Allreduce(ok, 0, ok, 0, 1, MPI.INT, MPI.MIN);
        if (problem != null) System.out.println("FAIL: " + problem);
        if (rank == 0 && ok[0] == 1) System.out.println("PASS: " + np + " ranks, " + (long) block * rounds * np + " bytes verified");
        MPI.Finalize();
    }

    private static byte mark(int rank, int round, int k) {
        return (byte) (rank * 31 + round * 7 + k);
    }
}
