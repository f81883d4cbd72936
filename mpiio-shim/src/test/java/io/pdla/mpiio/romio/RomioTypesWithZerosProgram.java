package io.pdla.mpiio.romio;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.Datatype;
import mpi.MPI;

/**
 * ROMIO test/types_with_zeros.c: on two processes, rank 0 pre-fills a file with nine ints of -999; each
 * rank then writes ones with write_all through a filetype of nine blocks of 0 or 1 int (zero-length blocks
 * included, rank 0 owning ints 4, 5, 7 and rank 1 the others), built as indexed, hindexed and struct; rank 0
 * reads the nine ints back and none may still be negative.
 *
 * <p>MPJ counts hindexed and struct displacements in elements of the base type, so the C test's byte
 * addresses {@code i * sizeof(int)} are {@code i} here: the same typemap.
 */
public final class RomioTypesWithZerosProgram {
    static final int MAXLEN = 9;

    enum Case { INDEXED, HINDEXED, STRUCT }

    public static void main(String[] argv) throws Exception {
        Romio.run("types_with_zeros", argv, t -> {
            if (t.size() != 2) throw new IllegalStateException("Must run on 2 MPI processes");
            for (Case c : Case.values()) testIndexedWithZeros(t, t.filename(), c);
        });
    }

    static void testIndexedWithZeros(Romio t, String filename, Case testcase) throws Exception {
        int rank = t.rank();
        int[] nelms = new int[MAXLEN], buf = new int[MAXLEN], indices = new int[MAXLEN], blocklen = new int[MAXLEN];
        if (rank == 0) nelms[4] = nelms[5] = nelms[7] = 1;
        if (rank == 1) nelms[0] = nelms[1] = nelms[2] = nelms[3] = nelms[6] = nelms[8] = 1;

        // pre-fill the file with integers -999
        if (rank == 0) {
            java.util.Arrays.fill(buf, -999);
            File fh = new File(MPI.COMM_SELF, filename, MPIIO.MODE_CREATE | MPIIO.MODE_WRONLY, new Info());
            fh.write(buf, 0, MAXLEN, MPI.INT);
            fh.close();
        }
        MPI.COMM_WORLD.Barrier();

        // define a filetype with spurious leading zeros
        int buflen = 0, num = 0;
        Datatype[] types = new Datatype[MAXLEN];
        for (int i = 0; i < MAXLEN; i++) {
            buflen += nelms[i];
            indices[num] = i;
            blocklen[num] = nelms[i];
            types[num] = MPI.INT;
            num++;
        }
        Datatype filetype = switch (testcase) {
            case INDEXED -> Datatype.Indexed(blocklen, indices, MPI.INT);
            case HINDEXED -> Datatype.Hindexed(blocklen, indices, MPI.INT);
            case STRUCT -> Datatype.Struct(blocklen, indices, types);
        };
        filetype.Commit();

        java.util.Arrays.fill(buf, 1);
        File fh = new File(MPI.COMM_WORLD, filename, MPIIO.MODE_WRONLY, new Info());
        fh.setView(0, MPI.INT, filetype, "native", new Info());
        fh.writeAll(buf, 0, buflen, MPI.INT);
        fh.close();

        if (rank == 0) {
            fh = new File(MPI.COMM_SELF, filename, MPIIO.MODE_RDONLY, new Info());
            fh.read(buf, 0, MAXLEN, MPI.INT);
            fh.close();
            for (int i = 0; i < MAXLEN; i++) {
                if (buf[i] < 0) t.error("Error: unexpected value for case " + testcase + " at buf[" + i + "] == " + buf[i]);
            }
        }
    }
}
