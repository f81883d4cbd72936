package io.pdla.mpiio;

import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.programs.ConformanceProgram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 32: behaviours MPI-IO test programs from outside the project check, from MPI-4.0 chapter 14 and ROMIO
 * (one MPJ job on the multicore device per item; {@link ConformanceProgram} has the checks).
 */
class ConformanceTest {
    @TempDir
    Path dir;

    private void runPart(String part, int np, int checks) throws Exception {
        MpjJob.Result r = MpjTestSupport.run(ConformanceProgram.class, np, dir.toString(), part);
        List<String> passed = MpjTestSupport.assertAllPassed(r, np);
        assertEquals(checks * np, passed.size(), "PASS lines:\n" + r.output());
    }

    /** Item 1: a type costs what its merged form costs; past FileType.MAX_BLOCKS merged blocks, ERR_TYPE naming it. */
    @Test
    void typesThatMergeAreFlattenedWhateverTheirPieceCount() throws Exception {
        runPart("bigtypes", 2, 4);
    }

    /** Item 1: merging while flattening keeps the standard's typemap (fresh seed each run, printed; -Dpdla.flatten.seed=N replays one). */
    @Test
    void flattenedTypemapsEqualTheStandards() throws Exception {
        long seed = Long.getLong("pdla.flatten.seed", System.nanoTime());
        System.out.println("ConformanceTest flatten seed=" + seed);
        MpjJob.Result r = MpjTestSupport.run(ConformanceProgram.class, 1, dir.toString(), "flatten", Long.toString(seed));
        assertEquals(1, MpjTestSupport.assertAllPassed(r, 1).size(), "seed " + seed + ":\n" + r.output());
    }

    /** Item 2: overlap is forbidden only for writing (MPI-4.0 14.3; ROMIO's check_type). */
    @Test
    void overlappingFiletypesReadOnAReadOnlyFile() throws Exception {
        runPart("overlap", 2, 5);
    }

    /** Item 3: where MPI names no class, ROMIO's. */
    @Test
    void errorClassesAreRomios() throws Exception {
        runPart("errors", 2, 3);
    }

    /** Item 4: MPI_DISPLACEMENT_CURRENT. */
    @Test
    void displacementCurrentOnSequentialFiles() throws Exception {
        runPart("sequential", 3, 2);
    }

    /** Item 6: NULL with count 0, as C programs pass it. */
    @Test
    void nullBufferWithCountZero() throws Exception {
        runPart("nullbuffer", 2, 1);
    }
}
