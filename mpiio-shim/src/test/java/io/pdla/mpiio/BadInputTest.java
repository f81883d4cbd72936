package io.pdla.mpiio;

import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.programs.BadInputProgram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Each bad input gets its error class and leaves the file unchanged (2 multicore ranks). */
class BadInputTest {
    @TempDir
    Path dir;

    @Test
    void everyBadInputIsRejectedWithItsErrorClassAndTheFileIsUnchanged() throws Exception {
        MpjJob.Result r = MpjTestSupport.run(BadInputProgram.class, 2, dir.toString());
        assertEquals(2 * 11, MpjTestSupport.assertAllPassed(r, 2).size(), r.output());
    }
}
