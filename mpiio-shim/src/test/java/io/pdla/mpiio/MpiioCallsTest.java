package io.pdla.mpiio;

import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.programs.MpiioCallsProgram;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The calls of issue 14 (nonblocking, split, atomic, datareps, error handlers, darray...) on 1, 2 and 3 multicore ranks. */
class MpiioCallsTest {
    private static final int CHECKS = 15;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3})
    void newCallsWorkOnMulticoreRanks(int np) throws Exception {
        MpjJob.Result r = MpjTestSupport.run(MpiioCallsProgram.class, np, dir.toString());
        List<String> passed = MpjTestSupport.assertAllPassed(r, np);
        assertEquals(CHECKS * np, passed.size(), "PASS lines:\n" + r.output());
    }
}
