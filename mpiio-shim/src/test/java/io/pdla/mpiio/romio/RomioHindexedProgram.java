package io.pdla.mpiio.romio;

import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.IoStatus;
import io.pdla.mpiio.MPIIO;
import mpi.Datatype;
import mpi.MPI;

/**
 * ROMIO test/hindexed.c (Wei-keng Liao): four processes each write a 2x6-char subarray of a 10x20 char
 * array as an hindexed filetype of two 3-char blocks per row, every other row, whose lower bound is not 0
 * (the rank's offset), twice (views at displacement 0 and at the array size) with write_all; rank 0 reads
 * the file and compares it with the C test's compare_buf, written out here.
 */
public final class RomioHindexedProgram {
    static final int YLEN = 5, XLEN = 10, SUB_XLEN = 3;

    /** compare_buf of hindexed.c, rows of 20 chars; '.' stands for the zero bytes nothing was written to. */
    static final String[] COMPARE = {
            "012..345..DEF..GHI..",
            "....................",
            "678..9:;..JKL..MNO..",
            "....................",
            "....................",
            "XYZ..[\\]..lmn..opq..",
            "....................",
            "^_`..abc..rst..uvw..",
            "....................",
            "....................",
    };

    public static void main(String[] argv) throws Exception {
        Romio.run("hindexed", argv, t -> {
            int rank = t.rank(), np = t.size();
            if (np != 4) throw new IllegalStateException("Please run with 4 processes.");
            String filename = t.filename();
            int numIo = 2;
            int[] rankDim = {rank / 2, rank % 2};
            int[] sizes = {YLEN * 2, XLEN * 2};
            int globalArraySize = sizes[0] * sizes[1];
            int[] subsizes = {YLEN / 2, XLEN * SUB_XLEN / 5};
            int offset = rankDim[0] * YLEN * sizes[1] + rankDim[1] * XLEN;

            int count = subsizes[0] * 2; // 2 is the no. blocks along X
            int[] blocklengths = new int[count], displacements = new int[count];
            for (int i = 0; i < count; i++) blocklengths[i] = subsizes[1] / 2;
            for (int i = 0; i < subsizes[0]; i++) {
                for (int j = 0; j < 2; j++) displacements[i * 2 + j] = offset + i * 2 * sizes[1] + j * XLEN / 2;
            }
            Datatype ftype = Datatype.Hindexed(blocklengths, displacements, MPI.BYTE);
            ftype.Commit();
            FileType flat = Datatypes.flatten(ftype);
            int ftypeSize = (int) flat.sizeBytes();
            if (flat.lbBytes() != offset) throw new IllegalStateException("the hindexed type's lower bound is " + flat.lbBytes() + ", MPI says " + offset);

            byte[] buf = new byte[subsizes[0] * subsizes[1]];
            for (int i = 0; i < buf.length; i++) buf[i] = (byte) ('0' + rank * 20 + i % 79);

            // zero file contents
            if (rank == 0) {
                byte[] wr = new byte[numIo * globalArraySize];
                File fh = new File(MPI.COMM_SELF, filename, MPIIO.MODE_CREATE | MPIIO.MODE_WRONLY, new Info());
                fh.write(wr, 0, wr.length, MPI.BYTE);
                fh.close();
            }

            File fh = new File(MPI.COMM_WORLD, filename, MPIIO.MODE_CREATE | MPIIO.MODE_WRONLY, new Info());
            for (int i = 0; i < numIo; i++) {
                fh.setView((long) i * globalArraySize, MPI.BYTE, ftype, "native", new Info());
                IoStatus s = fh.writeAll(buf, 0, ftypeSize, MPI.BYTE);
                t.expectEquals(ftypeSize, s.getCount(), "chars written by write_all " + i);
            }
            fh.close();

            if (rank == 0) {
                byte[] rd = new byte[numIo * globalArraySize];
                fh = new File(MPI.COMM_SELF, filename, MPIIO.MODE_RDONLY, new Info());
                fh.read(rd, 0, rd.length, MPI.BYTE);
                fh.close();
                int p = 0;
                for (int i = 0; i < 2 * YLEN * numIo; i++) {
                    String row = COMPARE[i % (2 * YLEN)];
                    for (int j = 0; j < 2 * XLEN; j++) {
                        byte want = row.charAt(j) == '.' ? 0 : (byte) row.charAt(j);
                        if (rd[p] != want) t.error("expected " + (char) want + " got " + (char) rd[p] + " at [" + i + "][" + j + "]");
                        p++;
                    }
                }
            }
        });
    }
}
