package io.pdla.mpiio;

import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.programs.ConcurrentCollectivesProgram;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 32, item 5: nonblocking collectives on two files of one rank run at once (each file's on its own
 * collective thread); the two-phase windows of one must never hold the other's bytes.
 */
class ConcurrentCollectivesTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3})
    void twoFilesNonblockingCollectivesKeepTheirBytes(int np) throws Exception {
        MpjJob.Result r = MpjTestSupport.run(ConcurrentCollectivesProgram.class, np, dir.toString(), "12");
        assertEquals(np, MpjTestSupport.assertAllPassed(r, np).size(), r.output());
    }
}
