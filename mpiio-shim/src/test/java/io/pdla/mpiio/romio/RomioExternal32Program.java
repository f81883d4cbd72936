package io.pdla.mpiio.romio;

import io.pdla.mpiio.File;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * ROMIO's test/external32.c: for the datareps native, external32 and internal, every rank writes the int
 * 123456789 at etype offset rank; rank 0 then reads
 * the file's first four bytes with plain file I/O and tells little from big endian. ROMIO only prints the
 * answer; here it is checked: native and internal are this machine's order, external32 big-endian. Then
 * the file written in external32 is read back through the view on every rank (the JVM's own order never
 * shows through).
 */
public final class RomioExternal32Program {
    public static void main(String[] argv) throws Exception {
        RomioCallsSupport.run(argv, "external32", t -> {
            int[] sampleI = {123456789};
            byte[] sampleLe = {0x15, (byte) 0xcd, 0x5b, 0x07};
            String[] datarep = {"native", "external32", "internal"};
            String filename = t.fname();
            int rank = t.rank;
            for (String rep : datarep) {
                File fileh = new File(MPI.COMM_WORLD, filename, MPIIO.MODE_RDWR | MPIIO.MODE_CREATE);
                fileh.setView(0, MPI.INT, MPI.INT, rep, null);
                fileh.writeAt(rank, sampleI, 0, 1, MPI.INT);
                fileh.close();
                MPI.COMM_WORLD.Barrier();
                if (rank == 0) {
                    byte[] c = java.util.Arrays.copyOf(Files.readAllBytes(Path.of(filename)), 4);
                    boolean le = true, be = true;
                    for (int i = 0; i < 4; i++) {
                        le &= c[i] == sampleLe[i];
                        be &= c[i] == sampleLe[3 - i];
                    }
                    String seen = le ? "LITTLE ENDIAN" : be ? "BIG ENDIAN" : "unknown";
                    boolean nativeLe = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
                    String expected = rep.equals("external32") || !nativeLe ? "BIG ENDIAN" : "LITTLE ENDIAN";
                    System.out.println(rep + " datarep is " + seen);
                    if (!seen.equals(expected)) t.error(rep + " datarep is " + seen + ", expected " + expected);
                }
                MPI.COMM_WORLD.Barrier();
                fileh = new File(MPI.COMM_WORLD, filename, MPIIO.MODE_RDONLY);
                fileh.setView(0, MPI.INT, MPI.INT, rep, null);
                int[] back = new int[1];
                fileh.readAtAll(0, back, 0, 1, MPI.INT);
                if (back[0] != sampleI[0]) t.error(rep + ": read back " + back[0] + ", wrote " + sampleI[0]);
                fileh.close();
                if (rank == 0) File.delete(filename);
                MPI.COMM_WORLD.Barrier();
            }
        });
    }
}
