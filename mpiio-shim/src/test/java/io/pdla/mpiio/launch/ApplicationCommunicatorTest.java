package io.pdla.mpiio.launch;

import io.pdla.mpiio.MpjTestSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The application ranks' communicator (MPJ's Create with pdla's linear context agreement, instead of MPJ's
 * Split: minutes at 144 ranks in one JVM) is a real MPJ communicator of exactly the application ranks: size, rank, collectives,
 * point-to-point, communicators derived from it, traffic kept apart from the world's. Multicore device.
 */
class ApplicationCommunicatorTest {
    @ParameterizedTest(name = "np={0} delegates={1}")
    @CsvSource({"3,1", "72,8"})
    void theApplicationRanksGetAWorkingCommunicatorOfTheirOwn(int np, int delegates) throws Exception {
        MpjJob.Result r = MpjTestSupport.run(ApplicationCommunicatorProgram.class, np, String.valueOf(delegates));
        List<String> passed = MpjTestSupport.assertAllPassed(r, np);
        int applications = np - delegates;
        assertEquals(applications * 8 + delegates * 2, passed.size(), r.output());
    }
}
