package io.pdla.bench.ior;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Statistics and ratios from raw points, checked against hand-computed values. */
class ReportsTest {
    private static final long MIB = 1 << 20;

    private static RunInfo info(List<String> backends) {
        return new RunInfo("now", List.of(), "MPIIO", backends, backends, 2, "f", false, false, false, false, false,
                MIB, MIB, 1, 2 * MIB, 2);
    }

    /** A point moving {@code mib} MiB in {@code seconds}, half of it in the transfers. */
    private static IterationPoint p(String backend, String op, int it, long mib, double seconds) {
        return IterationPoint.of(backend, op, it, mib * MIB, mib, seconds, seconds / 4, seconds / 2, seconds / 4);
    }

    @Test
    void pointBandwidthIsBytesOverTime() {
        IterationPoint x = p("mpiio", "write", 0, 100, 0.5);
        assertEquals(200.0, x.mibPerSec(), 1e-9);
        assertEquals(200.0 * MIB / 1e6, x.mbPerSec(), 1e-9);
    }

    @Test
    void summariesAndRatios() {
        List<IterationPoint> points = List.of(
                p("mpiio", "write", 0, 100, 1.0), p("mpiio", "write", 1, 100, 0.5),      // 100, 200 MiB/s
                p("mpiio", "read", 0, 100, 0.25), p("mpiio", "read", 1, 100, 0.25),      // 400, 400
                p("posix-baseline", "write", 0, 100, 0.5), p("posix-baseline", "write", 1, 100, 0.5), // 200, 200
                p("posix-baseline", "read", 0, 100, 0.2), p("posix-baseline", "read", 1, 100, 0.2));   // 500, 500
        IorReport r = Reports.build(info(List.of("mpiio", "posix-baseline")), points, List.of(), true, 10, 0);
        assertEquals(4, r.summaries().size());
        Summary w = r.summaries().get(0);
        assertEquals("mpiio", w.backend());
        assertEquals("write", w.operation());
        assertEquals(200, w.maxMiBps(), 1e-9);
        assertEquals(100, w.minMiBps(), 1e-9);
        assertEquals(150, w.meanMiBps(), 1e-9);
        assertEquals(Math.sqrt(((50 * 50) + (50 * 50)) / 1.0), w.stddevMiBps(), 1e-9);
        assertEquals(0.75, w.meanSeconds(), 1e-12);
        assertEquals((100 / 0.5 + 100 / 0.25) / 2, w.meanTransferMiBps(), 1e-9);
        assertEquals(150.0 / 200, r.writeRatio(), 1e-12);
        assertEquals(400.0 / 500, r.readRatio(), 1e-12);
        assertEquals(200.0 / 200, r.writeRatioOfMax(), 1e-12);
        assertEquals(400.0 / 500, r.readTransferRatio(), 1e-12);
        assertEquals(true, r.succeeded());
    }

    @Test
    void noBaselineNoRatio() {
        IorReport r = Reports.build(info(List.of("mpiio")), List.of(p("mpiio", "write", 0, 10, 1)), List.of(), false, 0, 0);
        assertNull(r.writeRatio());
        assertNull(r.readRatio());
        assertEquals(1, r.summaries().size());
    }

    @Test
    void verifyFailureOrErrorsMeanFailure() {
        assertEquals(false, Reports.build(info(List.of("mpiio")), List.of(), List.of(), true, 10, 1).succeeded());
        assertEquals(false, Reports.build(info(List.of("mpiio")), List.of(), List.of("boom"), false, 0, 0).succeeded());
    }
}
