package io.pdla.mpiio.romio;

import io.pdla.mpiio.MpjTestSupport;
import io.pdla.mpiio.launch.MpjJob;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * ROMIO's test programs (MPICH src/mpi/romio/test), ported to pdla's API, each run as one MPJ job on the
 * multicore device with the rank count ROMIO's runtests script uses. A program checks its own data and
 * prints one PASS line per rank when ROMIO's reduced error count is zero.
 */
class RomioPortsTest {
    @TempDir
    Path dir;

    static Stream<Arguments> ports() {
        return Stream.of(
                Arguments.of(RomioSimpleProgram.class, 4, List.of()),
                Arguments.of(RomioPsimpleProgram.class, 4, List.of())
        );
    }

    @ParameterizedTest(name = "{0} on {1} ranks {2}")
    @MethodSource("ports")
    void romioTestPasses(Class<?> program, int np, List<String> options) throws Exception {
        runAndCheck(program, np, options, List.of());
    }

    private void runAndCheck(Class<?> program, int np, List<String> options, List<String> jvmOptions) throws Exception {
        List<String> args = new ArrayList<>();
        args.add(dir.toString());
        args.addAll(options);
        MpjJob.Builder b = MpjJob.builder(program.getName()).processes(np)
                .classPath(MpjJob.currentClassPath()).args(args);
        jvmOptions.forEach(b::jvmOption);
        MpjJob.Result r = b.build().run(300);
        List<String> passed = MpjTestSupport.assertAllPassed(r, np);
        assertEquals(np, passed.size(), "one PASS line per rank:\n" + r.output());
    }
}
