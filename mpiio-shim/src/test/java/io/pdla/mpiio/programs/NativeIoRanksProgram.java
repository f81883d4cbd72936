package io.pdla.mpiio.programs;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import io.pdla.storage.posix.NativePosix;
import mpi.Datatype;
import mpi.MPI;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static io.pdla.mpiio.programs.Checks.expect;
import static io.pdla.mpiio.programs.Checks.expectBytes;
import static io.pdla.mpiio.programs.Checks.expectEquals;

/**
 * Every rank of a multicore job (each with its own class loader of pdla) reads and writes through the POSIX driver's
 * native path: byte arrays at offsets, a strided view without data sieving (piece lists), and a read-only file
 * below the mapping's threshold; each rank's own count of native calls must grow, and the JVM-wide count must hold
 * them all. Argument: a directory for the files.
 */
public final class NativeIoRanksProgram {
    private static final int BLOCK = 16 << 10, BLOCKS = 8;

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path dir = Path.of(args[0]);
        Checks c = new Checks();
        int rank = c.rank(), np = MPI.COMM_WORLD.Size();
        String name = dir.resolve("native-ranks").toString();
        MPI.COMM_WORLD.Barrier();   // the library counts the JVM's transfers: every rank's count starts before any rank's I/O
        long before = NativePosix.callsInThisJvm();
        MPI.COMM_WORLD.Barrier();

        c.check("the native library is loaded in this rank's class loader", () ->
                expect(NativePosix.available(), "unavailable: " + NativePosix.unavailableReason()));

        c.check("strided blocks written and read back at offsets, byte for byte", () -> {
            File fh = new File(MPI.COMM_WORLD, name, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, new Info());
            for (int b = 0; b < BLOCKS; b++) {
                long off = ((long) b * np + rank) * BLOCK;
                fh.writeAt(off, block(off), 0, BLOCK, MPI.BYTE);
            }
            fh.sync();
            MPI.COMM_WORLD.Barrier();
            fh.sync();
            for (int b = 0; b < BLOCKS; b++) {
                long off = ((long) b * np + (rank + 1) % np) * BLOCK; // another rank's block
                byte[] got = new byte[BLOCK];
                fh.readAt(off, got, 0, BLOCK, MPI.BYTE);
                expectBytes(block(off), got, "block at " + off);
            }
            fh.close();
        });

        c.check("a strided view without sieving reads every rank's blocks as one list", () -> {
            Info noSieving = new Info().set("romio_ds_read", "disable").set("romio_ds_write", "disable");
            File fh = new File(MPI.COMM_WORLD, name, MPIIO.MODE_RDWR, noSieving);
            Datatype strided = Datatype.Vector(BLOCKS, BLOCK, BLOCK * np, MPI.BYTE);
            strided.Commit();
            int other = (rank + 1) % np;
            fh.setView((long) other * BLOCK, MPI.BYTE, strided, "native", noSieving);
            byte[] got = new byte[BLOCK * BLOCKS];
            fh.readAt(0, got, 0, got.length, MPI.BYTE);
            for (int b = 0; b < BLOCKS; b++) {
                long off = ((long) b * np + other) * BLOCK;
                byte[] one = new byte[BLOCK];
                System.arraycopy(got, b * BLOCK, one, 0, BLOCK);
                expectBytes(block(off), one, "view block " + b);
            }
            fh.close();
        });

        c.check("a read-only file's 16 KiB reads (below the mapping's threshold) go native, every rank's", () -> {
            MPI.COMM_WORLD.Barrier();
            long start = NativePosix.callsInThisJvm();
            MPI.COMM_WORLD.Barrier();
            File fh = new File(MPI.COMM_WORLD, name, MPIIO.MODE_RDONLY, new Info());
            byte[] got = new byte[BLOCK];
            fh.readAt((long) rank * BLOCK, got, 0, BLOCK, MPI.BYTE);
            expectBytes(block((long) rank * BLOCK), got, "read-only block");
            fh.close();   // collective: every rank has read when it returns
            long made = NativePosix.callsInThisJvm() - start;
            expect(made >= np, made + " native calls for the " + np + " ranks' reads of the read-only file");
        });

        c.check("the JVM's native calls hold every rank's, whichever loader holds each rank's pdla", () -> {
            MPI.COMM_WORLD.Barrier();
            long made = NativePosix.callsInThisJvm() - before;
            // each rank: BLOCKS writes and BLOCKS reads, the view's list, the read-only read
            expect(made >= np * (2L * BLOCKS + 2), "the ranks made " + made + " native calls");
            Map<String, Object[]> shared = loaders();
            shared.put("rank-" + rank, new Object[]{System.identityHashCode(NativePosix.class.getClassLoader())});
            MPI.COMM_WORLD.Barrier();
            if (rank == 0) {
                java.util.Set<Object> distinct = new java.util.HashSet<>();
                for (int r = 0; r < np; r++) distinct.add(shared.get("rank-" + r)[0]);
                // each rank's own copy of core, or one copy for all when the launcher shares core's classes
                boolean sharedCore = NativePosix.class.getClassLoader() == ClassLoader.getSystemClassLoader();
                expectEquals(sharedCore ? 1 : np, distinct.size(), "class loaders of pdla's core among the ranks (shared: " + sharedCore + ")");
            }
            MPI.COMM_WORLD.Barrier();
        });

        c.done();
        MPI.Finalize();
    }

    private static byte[] block(long off) {
        byte[] b = new byte[BLOCK];
        for (int i = 0; i < BLOCK; i++) b[i] = Checks.valueAt(off + i);
        return b;
    }

    /** A JDK map under a system property: what the ranks of this JVM, each with its own loader, all see. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object[]> loaders() {
        return (Map<String, Object[]>) System.getProperties().computeIfAbsent("pdla.test.native-io-ranks", k -> new ConcurrentHashMap<String, Object[]>());
    }
}
