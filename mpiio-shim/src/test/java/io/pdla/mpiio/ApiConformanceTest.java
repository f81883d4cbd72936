package io.pdla.mpiio;

import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.programs.ApiConformanceProgram;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Every MPI-IO call against the POSIX driver, data verified byte for byte, on 1, 2 and 4 multicore ranks. */
class ApiConformanceTest {
    private static final int CHECKS = 16;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 4})
    void everyCallWorksOnMulticoreRanks(int np) throws Exception {
        MpjJob.Result r = MpjTestSupport.run(ApiConformanceProgram.class, np, dir.toString());
        List<String> passed = MpjTestSupport.assertAllPassed(r, np);
        assertEquals(CHECKS * np, passed.size(), "PASS lines:\n" + r.output());
    }
}
