package io.pdla.mpiio;

import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.programs.FatalErrhandlerProgram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** MPI_ERRORS_ARE_FATAL on a file: a failing call prints its error and ends the process there. */
class FatalErrhandlerTest {
    @TempDir
    Path dir;

    @Test
    void aFatalHandlerAbortsTheJob() throws Exception {
        MpjJob.Result r = MpjTestSupport.run(FatalErrhandlerProgram.class, 2, dir.toString());
        String out = r.output();
        assertFalse(r.timedOut(), "job hung:\n" + out);
        assertTrue(out.contains("MPI_ERRORS_ARE_FATAL") && out.contains("ERR_ARG"), "the error was printed:\n" + out);
        assertFalse(out.contains("NOT REACHED") || out.contains("RETURNED"), "the call returned:\n" + out);
        // MPJ's Comm.Abort does nothing and its multicore launcher reports 0 whatever the JVM's status, so the
        // evidence that the job ended is that rank 0 never got past the call
        assertFalse(out.contains("FINALIZED 0"), "rank 0 went on to MPI_Finalize:\n" + out);
    }
}
