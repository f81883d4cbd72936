package io.pdla.mpiio.romio;

import io.pdla.mpiio.MpjTestSupport;
import io.pdla.mpiio.launch.MpjJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * ROMIO's test programs for the calls issue 14 added (nonblocking, split collectives, atomic mode,
 * datareps, darray, status, hints), ported faithfully and run under real MPJ multicore ranks; each prints
 * one PASS line per rank when ROMIO's summed error count is zero. The other ROMIO ports are in RomioPortsTest.
 */
class RomioCallsTest {
    @TempDir
    Path dir;

    private void runPort(Class<?> program, int np, String file) throws Exception {
        MpjJob.Result r = MpjTestSupport.run(program, np, dir.resolve(file).toString());
        List<String> passed = MpjTestSupport.assertAllPassed(r, np);
        assertEquals(np, passed.size(), "PASS lines:\n" + r.output());
    }

    @Test
    void atomicity() throws Exception {
        runPort(RomioAtomicityProgram.class, 4, "atomicity");
    }

    @Test
    void async() throws Exception {
        runPort(RomioAsyncProgram.class, 4, "async");
    }

    @Test
    void asyncMultiple() throws Exception {
        runPort(RomioAsyncMultipleProgram.class, 4, "async-multiple");
    }

    @Test
    void iNoncontig() throws Exception {
        runPort(RomioINoncontigProgram.class, 2, "i_noncontig");
    }

    @Test
    void splitColl() throws Exception {
        runPort(RomioSplitCollProgram.class, 4, "split_coll");
    }

    @Test
    void external32() throws Exception {
        runPort(RomioExternal32Program.class, 4, "test.datarep");
    }

    @Test
    void darrayRead() throws Exception {
        runPort(RomioDarrayReadProgram.class, 4, "darray_read");
    }

    @Test
    void status() throws Exception {
        runPort(RomioStatusProgram.class, 4, "status");
    }

    @Test
    void fileInfo() throws Exception {
        runPort(RomioFileInfoProgram.class, 4, "file_info");
    }
}
