package io.pdla.mpiio;

import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.programs.StructMarkerBoundsProgram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Regression: an MPJ struct's MPI.LB marker sets the lower bound (found by ROMIO's noncontig port). */
class StructMarkerBoundsTest {
    @TempDir
    Path dir;

    @Test
    void lbAndUbMarkersSetTheBounds() throws Exception {
        MpjJob.Result r = MpjTestSupport.run(StructMarkerBoundsProgram.class, 1, dir.toString());
        assertEquals(3, MpjTestSupport.assertAllPassed(r, 1).size(), r.output());
    }
}
