package io.pdla.mpiio.programs;

import io.pdla.mpiio.ErrorClass;
import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.MPI;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.pdla.mpiio.programs.Checks.expect;

/** Hint pdla_straight_calls with a value that is no flag: the open fails with ERR_ARG naming the hint and the value. Argument: a directory. */
public final class BadStraightHintProgram {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path file = Path.of(args[0], "bad-hint");
        Checks c = new Checks();
        c.check("pdla_straight_calls=sometimes fails the open", () -> {
            try {
                new File(MPI.COMM_SELF, file.toString(), MPIIO.MODE_RDWR | MPIIO.MODE_CREATE, new Info().set("pdla_straight_calls", "sometimes"));
                throw new AssertionError("the open succeeded");
            } catch (MPIIOException e) {
                expect(e.errorClass() == ErrorClass.ERR_ARG, "class " + e.errorClass());
                expect(e.getMessage().contains("pdla_straight_calls") && e.getMessage().contains("sometimes"), "message " + e.getMessage());
            }
        });
        c.done();
        MPI.Finalize();
    }
}
