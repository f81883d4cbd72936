package io.pdla.mpiio.programs;

import io.pdla.mpiio.ErrorClass;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.MPI;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A collective call that fails on one rank fails on every rank with the same error class, hangs nobody,
 * and writes nothing: a bad buffer (validation), and a runtime exception inside the chain. Arg: directory.
 */
public final class CollectiveFailureProgram {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path dir = Path.of(args[0]);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        Checks checks = new Checks();
        int block = 4096;
        for (String mode : new String[]{"enable", "disable"}) {
            checks.check("bad buffer on rank 1, cb " + mode, () -> {
                Path file = dir.resolve("bad-buffer-" + mode);
                File f = new File(MPI.COMM_WORLD, file.toString(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, hints(mode, null));
                f.setView((long) rank * block, FileType.bytes(1), Datatypes.vector(1, block, block).resized(0, (long) block * np), "native", new Info());
                byte[] data = new byte[block * 4];
                int count = rank == 1 ? data.length + 10 : data.length; // rank 1's buffer is too small for its count
                ErrorClass got = null;
                try {
                    f.writeAll(data, 0, count, MPI.BYTE);
                } catch (MPIIOException e) {
                    got = e.errorClass();
                }
                Checks.expect(got == ErrorClass.ERR_ARG, "every rank raises ERR_ARG, this one got " + got);
                MPI.COMM_WORLD.Barrier();
                Checks.expectEquals(0, Files.size(file), "bytes written by the failed collective call");
                // the handle stays usable: a good collective call afterwards works
                f.writeAll(data, 0, data.length, MPI.BYTE);
                Checks.expectEquals((long) block * 4 * np, f.getSize(), "file size after a good collective write");
                f.close();
            });
            checks.check("runtime exception in the chain on rank " + (np - 1) + ", cb " + mode, () -> {
                Path file = dir.resolve("runtime-" + mode);
                File f = new File(MPI.COMM_WORLD, file.toString(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, hints(mode, np - 1));
                f.setView((long) rank * block, FileType.bytes(1), Datatypes.vector(1, block, block).resized(0, (long) block * np), "native", new Info());
                byte[] data = new byte[block * 4];
                ErrorClass got = null;
                try {
                    f.writeAll(data, 0, data.length, MPI.BYTE);
                } catch (MPIIOException e) {
                    got = e.errorClass();
                }
                Checks.expect(got == ErrorClass.ERR_IO, "every rank raises ERR_IO, this one got " + got);
                MPI.COMM_WORLD.Barrier();
                Checks.expectEquals(0, Files.size(file), "bytes written by the failed collective call");
                f.close();
            });
        }
        for (String mode : new String[]{"enable", "disable"}) {
            checks.check("storage failure on the aggregator (rank 0), cb " + mode, () -> {
                Path file = dir.resolve("storage-" + mode);
                FailingStorageDriver.failWrites = false;
                File f = new File(MPI.COMM_WORLD, "failfs://" + file, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, hints(mode, null));
                f.setView((long) rank * block, FileType.bytes(1), Datatypes.vector(1, block, block).resized(0, (long) block * np), "native", new Info());
                Info one = new Info();
                one.set("cb_nodes", "1");
                f.setInfo(one);
                byte[] data = new byte[block * 4];
                FailingStorageDriver.failWrites = rank == 0;
                ErrorClass got = null;
                try {
                    f.writeAll(data, 0, data.length, MPI.BYTE);
                } catch (MPIIOException e) {
                    got = e.errorClass();
                }
                FailingStorageDriver.failWrites = false;
                Checks.expect(got == ErrorClass.ERR_NO_SPACE, "every rank raises the aggregator's ERR_NO_SPACE, this one got " + got);
                // the handle still works once storage does
                f.writeAll(data, 0, data.length, MPI.BYTE);
                Checks.expectEquals((long) block * 4 * np, f.getSize(), "file size after the storage recovered");
                f.close();
            });
        }
        checks.done();
        MPI.Finalize();
    }

    private static Info hints(String cb, Integer failRank) {
        Info info = new Info();
        info.set("romio_cb_write", cb);
        info.set("cb_nodes", "2");
        if (failRank != null) {
            info.set("pdla_interceptors", "test-fail");
            info.set("test_fail_rank", String.valueOf(failRank));
        }
        return info;
    }
}
