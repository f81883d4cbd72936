package io.pdla.mpiio.romio;

import io.pdla.mpiio.MpjTestSupport;
import io.pdla.mpiio.launch.MpjJob;
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

    /** Program, ranks (ROMIO's runtests; 4 where it does not run the test), ROMIO's command-line options. */
    static Stream<Arguments> ports() {
        return Stream.of(
                Arguments.of(RomioSimpleProgram.class, 4, List.of()),
                Arguments.of(RomioPsimpleProgram.class, 4, List.of()),
                Arguments.of(RomioErrorProgram.class, 1, List.of()),
                Arguments.of(RomioExclProgram.class, 4, List.of()),
                Arguments.of(RomioCreatExclProgram.class, 4, List.of()),
                Arguments.of(RomioCreatExclProgram.class, 4, List.of("-aggregate")),
                Arguments.of(RomioCollTestProgram.class, 4, List.of()),
                Arguments.of(RomioCollPerfProgram.class, 4, List.of("-scale", "8")),
                Arguments.of(RomioNoncontigProgram.class, 2, List.of()),
                Arguments.of(RomioNoncontigCollProgram.class, 2, List.of()),
                Arguments.of(RomioNoncontigColl2Program.class, 4, List.of()),
                Arguments.of(RomioSharedFpProgram.class, 4, List.of()),
                Arguments.of(RomioOrderedFpProgram.class, 4, List.of()),
                Arguments.of(RomioTypesWithZerosProgram.class, 2, List.of()),
                Arguments.of(RomioIndexedZerosProgram.class, 2, List.of()),
                Arguments.of(RomioHindexedProgram.class, 4, List.of()),
                Arguments.of(RomioAggregation1Program.class, 4, List.of("-hints")),
                Arguments.of(RomioAggregation2Program.class, 4, List.of()),
                Arguments.of(RomioBigExtentsProgram.class, 4, List.of())
        );
    }

    @ParameterizedTest(name = "{0} on {1} ranks {2}")
    @MethodSource("ports")
    void romioTestPasses(Class<?> program, int np, List<String> options) throws Exception {
        runAndCheck(program, np, options, List.of());
    }

    /** large_array.c writes a 4 GiB array; here 1/8 of it (512 MiB), all ranks in one JVM. */
    @Test
    @Tag("heavy")
    void largeArrayScaledToAnEighth() throws Exception {
        runAndCheck(RomioLargeArrayProgram.class, 4, List.of("-divisor", "8"), List.of());
    }

    @Test
    void misc() throws Exception {
        runAndCheck(RomioMiscProgram.class, 4, List.of(), List.of());
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
