package io.pdla.mpiio;

import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.programs.NativeIoRanksProgram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Four MPJ multicore ranks in one JVM, each loading pdla in its own class loader, all use the POSIX driver's native
 * path: the JNI library is bound once, to a loader of its own, and no rank falls back (a second binding would fail
 * with "already loaded in another classloader").
 */
class NativeIoRanksTest {
    @TempDir
    Path dir;

    @Test
    void fourMulticoreRanksAllReadAndWriteThroughTheNativePath() throws Exception {
        MpjJob.Result r = MpjTestSupport.run(NativeIoRanksProgram.class, 4, dir.toString());
        assertEquals(4 * 5, MpjTestSupport.assertAllPassed(r, 4).size(), r.output());
        assertFalse(r.output().contains("native I/O unavailable"), r.output());
    }

    /** The same with every rank loading its own core ({@code PDLA_SHARED_CLASSES=false}): one binding, reached from four loaders. */
    @Test
    void fourRanksWithTheirOwnCopiesOfCoreShareTheOneBinding() throws Exception {
        MpjJob.Result r = MpjJob.builder(NativeIoRanksProgram.class.getName()).processes(4)
                .classPath(MpjJob.currentClassPath()).args(java.util.List.of(dir.toString()))
                .env(io.pdla.mpiio.launch.SharedClassesJar.ENV, "false").build().run(120);
        assertEquals(4 * 5, MpjTestSupport.assertAllPassed(r, 4).size(), r.output());
        assertFalse(r.output().contains("native I/O unavailable"), r.output());
    }
}
