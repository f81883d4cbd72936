package io.pdla.patterns.online;

import io.pdla.access.IoOp;
import io.pdla.intercept.AppIdentity;
import io.pdla.patterns.db.PatternDatabase;
import io.pdla.patterns.db.PatternSpool;
import io.pdla.patterns.template.LocalPattern;
import io.pdla.patterns.template.MatchResult;
import io.pdla.patterns.template.MatcherConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rank's compact hand-off record: it carries the pass whole, and the daemon refuses anything else, naming it. */
class PassRecordTest {
    private static final AppIdentity APP = new AppIdentity("Iterative /data/é.dat 16384", 4);
    private static final URI FILE = URI.create("file:///data/%C3%A9.dat");

    @TempDir
    Path dir;

    /** Rank 2's pass: a strided run, then a nested (two-size cycle) one, as the interceptor feeds the matcher. */
    private static MatchResult pass() {
        PassMatcher m = new PassMatcher(2, 0, MatcherConfig.defaults(), 10_000);
        long t = 0;
        for (int s = 0; s < 40; s++, t += 1000) m.accept(IoOp.READ, (s * 4L + 2) * 16384, 16384, t, t + 400);
        long base = 1L << 30;
        for (int s = 0; s < 30; s++, t += 777) {
            m.accept(IoOp.READ, base + s * 65536L, 4096, t, t + 100);
            m.accept(IoOp.READ, base + s * 65536L + 8192, 1000, t + 200, t + 300);
        }
        return m.finish();
    }

    @Test
    void aRecordDecodesToThePassItWasMadeOf() {
        MatchResult pass = pass();
        assertTrue(pass.patterns().size() >= 2, "the pass should hold more than one pattern: " + pass);
        PassRecord r = new PassRecord(APP, FILE, Map.of("cb_buffer_size", "1048576", "pdla_app", "Iterative"), pass);
        byte[] bytes = r.encode();
        PassRecord back = PassRecord.decode(bytes);
        assertEquals(r, back);
        assertEquals(pass, back.pass(), "every pattern with its geometry, counts, sizes and times");
        assertArrayEquals(bytes, back.encode());
        assertEquals(HandedInPasses.entries(r), HandedInPasses.entries(back), "the same entries as from the pass itself");
    }

    @Test
    void damagedOrForeignRecordsAreRefusedSayingWhy() {
        byte[] good = new PassRecord(APP, FILE, Map.of(), pass()).encode();
        byte[] flipped = good.clone();
        flipped[flipped.length / 2] ^= 0x10;
        assertTrue(refused(flipped).contains("checksum"), refused(flipped));
        assertTrue(refused(java.util.Arrays.copyOf(good, good.length - 9)).contains("checksum"));
        assertTrue(refused("PDLASPL1 some older spool file".getBytes()).contains("magic"));
        byte[] later = good.clone();
        ByteBuffer.wrap(later, 8, 4).putInt(PassRecord.VERSION + 1);
        String m = refused(resealed(later));
        assertTrue(m.contains("version " + (PassRecord.VERSION + 1)), m);
        // well sealed but inconsistent: a rank the application does not have
        PassRecord stray = new PassRecord(new AppIdentity("Iterative", 2), FILE, Map.of(), pass());
        m = refused(stray.encode());
        assertTrue(m.contains("rank 2 outside 0..1"), m);
    }

    @Test
    void aGroupedGeometryIsRefusedRatherThanStoredWithoutItsGrouping() {
        MatchResult pass = pass();
        LocalPattern p = pass.patterns().get(0);
        io.pdla.pattern.Geometry grouped = io.pdla.pattern.Geometry.grouped(io.pdla.pattern.Geometry.strided(0, 16, 64, 4), 4, 16);
        LocalPattern q = new LocalPattern(p.rank(), p.fileId(), p.kind(), p.ops(), grouped, p.requests(), p.requestBytes(), p.repetitions(),
                p.requestSizes(), p.temporal(), p.firstStartNanos(), p.lastEndNanos());
        MatchResult withGrouped = new MatchResult(pass.rank(), pass.fileId(), List.of(q), pass.requests(), pass.bytes(),
                pass.explainedRequests(), pass.explainedBytes());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PassRecord(APP, FILE, Map.of(), withGrouped).encode());
        assertTrue(e.getMessage().contains("never grouped"), e.getMessage());
    }

    @Test
    void theDaemonSetsAsideWhatItCannotReadNamingTheFileAndStoresTheRest() throws Exception {
        Path db = dir.resolve("patterns");
        PatternHandoff.store(new PatternHandoff.Item(db, new PassRecord(APP, FILE, Map.of(), pass())));
        Path spool = PatternSpool.dirOf(db);
        byte[] damaged = new PassRecord(APP, URI.create("file:///data/other.dat"), Map.of(), pass()).encode();
        damaged[20] ^= 1;
        Files.write(spool.resolve("0000000000000000001-damaged.pass"), damaged);
        Files.write(spool.resolve("0000000000000000002-old.entries"), new byte[]{'P', 'D', 'L', 'A', 'S', 'P', 'L', '1'});
        Files.write(spool.resolve(".0000000000000000003-being-written.tmp"), new byte[]{1});
        assertTrue(PatternSpool.pending(db));
        List<String> problems = new ArrayList<>();
        try (PatternDatabase pdb = PatternDatabase.open(db)) {
            int stored = HandedInPasses.drainInto(pdb, problems::add);
            assertEquals(HandedInPasses.entries(new PassRecord(APP, FILE, Map.of(), pass())).size(), stored);
            assertEquals(stored, pdb.keys().size(), "only the good record's entries: " + pdb.keys());
            assertTrue(pdb.keys().stream().allMatch(k -> k.file().equals(FILE)), pdb.keys().toString());
        }
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("0000000000000000001-damaged.pass") && problems.get(0).contains("checksum"), problems.get(0));
        assertTrue(problems.get(1).contains("0000000000000000002-old.entries") && problems.get(1).contains("not a hand-off record"), problems.get(1));
        assertTrue(Files.exists(spool.resolve("0000000000000000001-damaged.pass.bad")));
        assertTrue(Files.exists(spool.resolve("0000000000000000002-old.entries.bad")));
        assertTrue(Files.exists(spool.resolve(".0000000000000000003-being-written.tmp")), "a file being written is left alone");
        assertFalse(PatternSpool.pending(db), "nothing left to take");
    }

    private static String refused(byte[] record) {
        return assertThrows(IllegalArgumentException.class, () -> PassRecord.decode(record)).getMessage();
    }

    /** The record with its checksum made right again: a foreign record, not a damaged one. */
    private static byte[] resealed(byte[] record) {
        CRC32C crc = new CRC32C();
        crc.update(record, 0, record.length - 4);
        ByteBuffer.wrap(record, record.length - 4, 4).putInt((int) crc.getValue());
        return record;
    }
}
