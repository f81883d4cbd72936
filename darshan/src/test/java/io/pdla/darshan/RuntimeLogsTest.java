package io.pdla.darshan;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Logs the real Darshan runtime wrote ({@link RuntimeLogs}: IOR through POSIX and MPI-IO, a Python program, a run
 * without DXT): pdla's reader prints exactly what darshan-util 3.5.0 printed for them, finds in them the segments the
 * programs' parameters imply, and skips a module it does not know with a note instead of failing or misreading.
 */
class RuntimeLogsTest {
    private static final String DIR = "/runtime-logs/expected/";

    static List<String> names() { return RuntimeLogs.NAMES; }

    @ParameterizedTest
    @MethodSource("names")
    void parseAllPrintsExactlyWhatDarshanParserPrinted(String name) throws Exception {
        StringBuilder out = new StringBuilder();
        new ParserReport(out, new StringBuilder(), ZoneId.of("UTC"))
                .print(read(name), new ParserReport.Options(true, true, true, true, true));
        String base = name.replace(".darshan", "");
        ExpectedTexts.assertSameText(base + " --all", "darshan-parser", ExpectedTexts.gzipped(DIR + base + ".darshan-parser-all.txt.gz"), out.toString());
    }

    @ParameterizedTest
    @MethodSource("names")
    void dxtPrintsExactlyWhatDarshanDxtParserPrinted(String name) throws Exception {
        StringBuilder out = new StringBuilder(), err = new StringBuilder();
        assertTrue(new DxtReport(out, err, ZoneId.of("UTC")).print(read(name), false), name + ": a DXT region reported as damaged");
        assertEquals("", err.toString());
        String base = name.replace(".darshan", "");
        ExpectedTexts.assertSameText(base, "darshan-dxt-parser", ExpectedTexts.gzipped(DIR + base + ".darshan-dxt-parser.txt.gz"), out.toString());
    }

    @Test
    void iorPosixSegmentsAreTheStridedBlocksIorsParametersGive() throws IOException {
        DarshanLog log = read(RuntimeLogs.IOR_POSIX);
        assertEquals(RuntimeLogs.IOR_TASKS, log.job().nprocs());
        assertNull(log.firstError());
        Map<Long, DxtRecord> byRank = dxtOf(log, ModuleId.DXT_POSIX, "/tmp/pdla-darshan-samples/ior-posix.dat");
        assertEquals(RuntimeLogs.IOR_TASKS, byRank.size(), "one DXT_POSIX record per task");
        int n = RuntimeLogs.IOR_TASKS, b = RuntimeLogs.IOR_BLOCK;
        byRank.forEach((rank, d) -> {
            assertEquals(RuntimeLogs.IOR_SEGMENTS, d.writeCount(), "rank " + rank + " writes one block per segment");
            assertEquals(RuntimeLogs.IOR_SEGMENTS, d.readCount(), "rank " + rank + " reads one block per segment");
            for (int s = 0; s < RuntimeLogs.IOR_SEGMENTS; s++) {
                assertEquals((long) (s * n + rank) * b, d.offsets()[s], "rank " + rank + " write " + s);
                // -C shifts the reading task by a node's task count: all 4 on one node, so each reads its own blocks
                assertEquals((long) (s * n + rank) * b, d.offsets()[d.writeCount() + s], "rank " + rank + " read " + s);
            }
            for (long len : d.lengths()) assertEquals(b, len);
        });
    }

    @Test
    void iorMpiioOnOpenMpiHasMpiioSegmentsWithoutOffsetsAndPosixSegmentsWithThem() throws IOException {
        DarshanLog log = read(RuntimeLogs.IOR_MPIIO);
        assertEquals(3, log.header().moduleVersions()[ModuleId.DXT_MPIIO.ordinal()], "DXT_MPIIO version 3 does record offsets");
        Map<Long, DxtRecord> mpi = dxtOf(log, ModuleId.DXT_MPIIO, "/tmp/pdla-darshan-samples/ior-mpiio.dat");
        assertEquals(RuntimeLogs.IOR_TASKS, mpi.size());
        for (DxtRecord d : mpi.values()) {
            assertEquals(2 * RuntimeLogs.IOR_SEGMENTS, d.segmentCount());
            // Darshan built against Open MPI does not ask MPI_File_get_byte_offset (darshan-mpiio.c): -1 throughout
            for (long o : d.offsets()) assertEquals(-1, o);
        }
        Map<Long, DxtRecord> posix = dxtOf(log, ModuleId.DXT_POSIX, "/tmp/pdla-darshan-samples/ior-mpiio.dat");
        assertEquals((long) RuntimeLogs.IOR_BLOCK, posix.get(1L).offsets()[0], "rank 1's first write, below MPI-IO");
    }

    @Test
    void iorCollectiveMpiioReachesTheFileAsOneAggregatorsContiguousSegments() throws IOException {
        DarshanLog log = read(RuntimeLogs.IOR_MPIIO_COLLECTIVE);
        String file = "/tmp/pdla-darshan-samples/ior-mpiio-coll.dat";
        Map<Long, DxtRecord> mpi = dxtOf(log, ModuleId.DXT_MPIIO, file);
        assertEquals(RuntimeLogs.IOR_TASKS, mpi.size(), "every task's collective calls");
        for (DxtRecord d : mpi.values()) {
            assertEquals(RuntimeLogs.IOR_SEGMENTS, d.writeCount());
            for (long len : d.lengths()) assertEquals(RuntimeLogs.IOR_BLOCK, len);
        }
        // collective buffering with one aggregator (the log's hint cb_nodes=1): rank 0 moves each segment of all tasks
        assertTrue(log.job().metadata().contains("cb_nodes=1"), log.job().metadata());
        Map<Long, DxtRecord> posix = dxtOf(log, ModuleId.DXT_POSIX, file);
        assertEquals(List.of(0L), List.copyOf(posix.keySet()), "only the aggregator touches the file");
        DxtRecord agg = posix.get(0L);
        long segment = (long) RuntimeLogs.IOR_TASKS * RuntimeLogs.IOR_BLOCK;
        assertEquals(RuntimeLogs.IOR_SEGMENTS, agg.writeCount());
        assertEquals(RuntimeLogs.IOR_SEGMENTS, agg.readCount());
        for (int s = 0; s < RuntimeLogs.IOR_SEGMENTS; s++) {
            assertEquals(s * segment, agg.offsets()[s], "write " + s);
            assertEquals(segment, agg.lengths()[s]);
            assertEquals(s * segment, agg.offsets()[agg.writeCount() + s], "read " + s);
            assertEquals(segment, agg.lengths()[agg.writeCount() + s]);
        }
    }

    @Test
    void pythonsCheckpointIsFourInterleavedWorkersOfEightKib() throws IOException {
        DarshanLog log = read(RuntimeLogs.PYTHON);
        assertEquals(1, log.job().nprocs());
        assertTrue(log.job().exe().contains("strided_rw.py"), log.job().exe());
        DxtRecord d = dxtOf(log, ModuleId.DXT_POSIX, "/tmp/pdla-darshan-samples/py/checkpoint.dat").get(0L);
        assertEquals(64, d.writeCount());
        assertEquals(64, d.readCount());
        for (int i = 0; i < 64; i++) {
            int worker = i / 16, round = i % 16;
            long expected = (long) (round * 4 + worker) * 8192;
            assertEquals(expected, d.offsets()[i], "write " + i);
            assertEquals(expected, d.offsets()[64 + i], "read " + i);
        }
    }

    @Test
    void aLogWithoutDxtHasCountersAndNoDxtModule() throws IOException {
        DarshanLog log = read(RuntimeLogs.IOR_NO_DXT);
        assertNull(log.module(ModuleId.DXT_POSIX));
        assertNull(log.module(ModuleId.DXT_MPIIO));
        List<CounterRecord> posix = log.module(ModuleId.POSIX).recordsOf(CounterRecord.class);
        long id = idOf(log, "/tmp/pdla-darshan-samples/ior-no-dxt.dat");
        CounterRecord shared = posix.stream().filter(r -> r.id() == id).findFirst().orElseThrow();
        assertEquals(-1, shared.rank(), "the shared file's record is reduced into rank -1");
        long n = (long) RuntimeLogs.IOR_TASKS * RuntimeLogs.IOR_SEGMENTS;
        assertEquals(n, shared.counters()[PosixCounter.POSIX_WRITES.ordinal()]);
        assertEquals(n * RuntimeLogs.IOR_BLOCK, shared.counters()[PosixCounter.POSIX_BYTES_READ.ordinal()]);
    }

    @Test
    void aModuleUnknownToTheReaderIsSkippedWithANoteAndTheRestReadsTheSame() throws Exception {
        byte[] real = RuntimeLogs.bytes(RuntimeLogs.IOR_POSIX);
        byte[] log = real.clone();
        ByteBuffer b = ByteBuffer.wrap(log).order(ByteOrder.LITTLE_ENDIAN);
        int slot = 40, heatmap = ModuleId.HEATMAP.ordinal();
        // a module id a newer runtime might use, its region some bytes of the log
        b.putLong(48 + 16 * slot, b.getLong(48 + 16 * heatmap));
        b.putLong(48 + 16 * slot + 8, b.getLong(48 + 16 * heatmap + 8));
        b.putInt(1072 + 4 * slot, 1);
        DarshanLog read = new DarshanReader().read(log), original = new DarshanReader().read(real);
        ModuleData unknown = read.modules().stream().filter(m -> m.index() == slot).findFirst().orElseThrow();
        assertNull(unknown.module());
        assertEquals("module id 40 is unknown to this reader; skipped", unknown.note());
        assertNull(read.firstError());
        StringBuilder dxt = new StringBuilder(), dxtOriginal = new StringBuilder();
        new DxtReport(dxt, new StringBuilder(), ZoneId.of("UTC")).print(read, false);
        new DxtReport(dxtOriginal, new StringBuilder(), ZoneId.of("UTC")).print(original, false);
        assertEquals(dxtOriginal.toString().replaceAll("(?m)^# .*\n", ""), dxt.toString().replaceAll("(?m)^# .*\n", ""),
                "every segment as in the log without the unknown module");
    }

    private static DarshanLog read(String name) throws IOException {
        Path p = RuntimeLogs.get(name);
        return new DarshanReader().read(p);
    }

    private static long idOf(DarshanLog log, String path) {
        return log.names().entrySet().stream().filter(e -> e.getValue().equals(path)).mapToLong(Map.Entry::getKey)
                .findFirst().orElseThrow(() -> new AssertionError(path + " not in the log's names: " + log.names().values()));
    }

    private static Map<Long, DxtRecord> dxtOf(DarshanLog log, ModuleId module, String path) {
        long id = idOf(log, path);
        Map<Long, DxtRecord> byRank = new TreeMap<>();
        for (DxtRecord d : log.module(module).recordsOf(DxtRecord.class)) if (d.id() == id) byRank.put(d.rank(), d);
        return byRank;
    }
}
