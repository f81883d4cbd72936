package io.pdla.mpiio.programs;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.ErrorClass;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static io.pdla.mpiio.programs.Checks.expect;

/**
 * Every bad input gets its MPI error class, a message naming the file, and leaves the file as it was.
 * Needs at least 2 ranks for the ERR_NOT_SAME checks. Argument: a directory for the files.
 */
public final class BadInputProgram {
    interface Call {
        void run() throws Exception;
    }

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path dir = Path.of(args[0]);
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.Rank();
        Checks c = new Checks();
        Path data = dir.resolve("precious");
        byte[] original = new byte[4096];
        for (int i = 0; i < original.length; i++) original[i] = (byte) (i * 7 + 3);
        if (rank == 0) Files.write(data, original);
        w.Barrier();
        String f = data.toString();
        int rw = MPIIO.MODE_RDWR;

        c.check("invalid amode combinations: ERR_AMODE", () -> {
            int[] bad = {0, MPIIO.MODE_RDONLY | MPIIO.MODE_RDWR, MPIIO.MODE_RDONLY | MPIIO.MODE_CREATE,
                    MPIIO.MODE_RDONLY | MPIIO.MODE_EXCL, MPIIO.MODE_RDWR | MPIIO.MODE_SEQUENTIAL, MPIIO.MODE_WRONLY | MPIIO.MODE_EXCL, 1 << 20 | rw};
            for (int amode : bad) fails(ErrorClass.ERR_AMODE, f, () -> new File(w, f, amode));
        });
        c.check("open of a missing file without MODE_CREATE: ERR_NO_SUCH_FILE, nothing created", () -> {
            Path missing = dir.resolve("missing");
            fails(ErrorClass.ERR_NO_SUCH_FILE, missing.toString(), () -> new File(w, missing.toString(), rw));
            expect(!Files.exists(missing), "a failed open created the file");
        });
        c.check("unknown URI scheme: ERR_IO naming the scheme (ROMIO's **iofstypeunsupported)", () -> {
            MPIIOException e = fails(ErrorClass.ERR_IO, "nosuchfs", () -> new File(w, "nosuchfs://x/y", rw | MPIIO.MODE_CREATE));
            expect(e.getMessage().contains("installed drivers"), e.getMessage());
        });
        c.check("arguments that must be equal on all ranks: ERR_NOT_SAME", () -> {
            int amode = rank == 0 ? rw : MPIIO.MODE_RDONLY;
            fails(ErrorClass.ERR_NOT_SAME, f, () -> new File(w, f, amode));
            File fh = new File(w, f, rw);
            fails(ErrorClass.ERR_NOT_SAME, f, () -> fh.setSize(rank == 0 ? 10 : 20));
            fh.close();
        });
        c.check("amodes differing in MODE_CREATE only: ERR_NOT_SAME on every rank, nothing created, nothing left open", () -> {
            // the rank without MODE_CREATE opens before the ranks compare (and fails: the file is missing); the
            // comparison's error comes first, and rank 0 must not have created the file
            Path missing = dir.resolve("created-by-nobody");
            int amode = rank == 0 ? rw | MPIIO.MODE_CREATE : rw;
            fails(ErrorClass.ERR_NOT_SAME, missing.toString(), () -> new File(w, missing.toString(), amode));
            expect(!Files.exists(missing), "an open whose amodes differ created the file");
            // both ranks open the existing file before comparing, and must close it again: no descriptor of it stays open
            int other = rank == 0 ? rw : MPIIO.MODE_RDONLY;
            fails(ErrorClass.ERR_NOT_SAME, f, () -> new File(w, f, other));
            w.Barrier();
            long left = descriptorsOf(data);
            w.Barrier(); // the next check opens the file again
            expect(left == 0, left + " descriptors of " + data + " open after an open whose amodes differ (none is open by the program)");
        });
        c.check("negative offsets: ERR_ARG; negative counts: ERR_COUNT", () -> {
            File fh = new File(w, f, rw);
            byte[] b = new byte[16];
            fails(ErrorClass.ERR_ARG, f, () -> fh.writeAt(-1, b, 0, 16, MPI.BYTE));
            fails(ErrorClass.ERR_COUNT, f, () -> fh.writeAt(0, b, 0, -3, MPI.BYTE));
            fails(ErrorClass.ERR_ARG, f, () -> fh.writeAt(0, b, -2, 3, MPI.BYTE));
            fails(ErrorClass.ERR_ARG, f, () -> fh.writeAt(0, b, 10, 16, MPI.BYTE));
            fails(ErrorClass.ERR_ARG, f, () -> fh.writeAtAll(-5, b, 0, 16, MPI.BYTE));
            fails(ErrorClass.ERR_ARG, f, () -> fh.readAt(-1, b, 0, 16, MPI.BYTE));
            fails(ErrorClass.ERR_ARG, f, () -> fh.seek(-1, MPIIO.SEEK_SET));
            fails(ErrorClass.ERR_ARG, f, () -> fh.seek(0, 12345));
            fails(ErrorClass.ERR_ARG, f, () -> fh.setSize(-1));
            fh.close();
        });
        c.check("non-monotone filetype and bad views: ERR_IO / ERR_ARG / ERR_UNSUPPORTED_DATAREP (ROMIO's classes)", () -> {
            File fh = new File(w, f, rw);
            Datatype backwards = Datatype.Indexed(new int[]{1, 1}, new int[]{5, 0}, MPI.BYTE);
            backwards.Commit();
            fails(ErrorClass.ERR_IO, f, () -> fh.setView(0, MPI.BYTE, backwards, "native", new Info()));
            fails(ErrorClass.ERR_IO, f, () -> fh.setView(0, FileType.bytes(1), Datatypes.indexed(new long[]{4, 4}, new long[]{0, 2}), "native", new Info()));
            fails(ErrorClass.ERR_ARG, f, () -> fh.setView(0, FileType.bytes(4), FileType.bytes(6), "native", new Info()));
            fails(ErrorClass.ERR_UNSUPPORTED_DATAREP, f, () -> fh.setView(0, MPI.BYTE, MPI.BYTE, "no-such-datarep", new Info()));
            fails(ErrorClass.ERR_ARG, f, () -> fh.setView(-8, MPI.BYTE, MPI.BYTE, "native", new Info()));
            byte[] b = new byte[3];
            fh.setView(0, MPI.INT, MPI.INT, "native", new Info());
            fails(ErrorClass.ERR_IO, f, () -> fh.writeAt(0, b, 0, 3, MPI.BYTE)); // 3 bytes is not a whole int etype
            fails(ErrorClass.ERR_TYPE, f, () -> fh.writeAt(0, new int[4], 0, 4, MPI.DOUBLE)); // buffer/type mismatch
            fh.close();
        });
        c.check("access the amode forbids: ERR_READ_ONLY / ERR_ACCESS", () -> {
            File ro = new File(w, f, MPIIO.MODE_RDONLY);
            fails(ErrorClass.ERR_READ_ONLY, f, () -> ro.writeAt(0, new byte[4], 0, 4, MPI.BYTE));
            fails(ErrorClass.ERR_READ_ONLY, f, () -> ro.setSize(0));
            ro.close();
            File wo = new File(w, f, MPIIO.MODE_WRONLY);
            fails(ErrorClass.ERR_ACCESS, f, () -> wo.readAt(0, new byte[4], 0, 4, MPI.BYTE));
            wo.close();
        });
        c.check("ByteBuffer calls pass the same validation as array calls, with the same messages", () -> {
            String read = f + ": rank " + rank + ": read: ", write = f + ": rank " + rank + ": write: ";
            File ro = new File(w, f, MPIIO.MODE_RDONLY);
            fails(ErrorClass.ERR_READ_ONLY, write, () -> ro.writeAt(0, java.nio.ByteBuffer.allocate(4)));
            ro.close();
            File wo = new File(w, f, MPIIO.MODE_WRONLY);
            fails(ErrorClass.ERR_ACCESS, read, () -> wo.readAt(0, java.nio.ByteBuffer.allocate(4)));
            wo.close();
            File fh = new File(w, f, rw);
            fails(ErrorClass.ERR_ARG, write, () -> fh.writeAt(-1, java.nio.ByteBuffer.allocate(4)));
            fails(ErrorClass.ERR_ARG, read, () -> fh.readAt(0, (java.nio.ByteBuffer) null));
            fh.setView(0, MPI.INT, MPI.INT, "native", new Info());
            fails(ErrorClass.ERR_IO, write, () -> fh.writeAt(0, java.nio.ByteBuffer.allocate(3))); // not a whole int etype
            fh.close();
            fails(ErrorClass.ERR_FILE, f, () -> fh.readAt(0, java.nio.ByteBuffer.allocate(4)));
        });
        c.check("use of a closed handle: ERR_FILE", () -> {
            File fh = new File(w, f, rw);
            fh.close();
            fails(ErrorClass.ERR_FILE, f, () -> fh.writeAt(0, new byte[4], 0, 4, MPI.BYTE));
            fails(ErrorClass.ERR_FILE, f, () -> fh.getSize());
            fails(ErrorClass.ERR_FILE, f, fh::close);
        });
        c.check("after all the bad calls, the file is byte for byte what it was", () -> {
            w.Barrier();
            expect(Arrays.equals(original, Files.readAllBytes(data)), "file changed");
        });
        c.done();
        MPI.Finalize();
    }

    /** This JVM's open descriptors of {@code file} (all ranks': they are threads of it). */
    private static long descriptorsOf(Path file) throws java.io.IOException {
        Path target = file.toAbsolutePath().normalize();
        try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).equals(target);
                } catch (java.io.IOException | UnsupportedOperationException gone) {
                    return false; // closed while listing
                }
            }).count();
        }
    }

    private static MPIIOException fails(ErrorClass expected, String mustMention, Call call) throws Exception {
        try {
            call.run();
        } catch (MPIIOException e) {
            if (e.errorClass() != expected) throw new AssertionError("expected " + expected + " but got " + e.errorClass() + ": " + e.getMessage(), e);
            if (!e.getMessage().contains(mustMention)) throw new AssertionError("message does not name '" + mustMention + "': " + e.getMessage());
            return e;
        }
        throw new AssertionError("expected " + expected + " but the call succeeded");
    }
}
