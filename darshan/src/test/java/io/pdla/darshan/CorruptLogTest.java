package io.pdla.darshan;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class CorruptLogTest {
    /** Where a format-3.41 header keeps the POSIX region's offset and length: module slot 1 of the map at byte 48. */
    private static final int POSIX_SLOT = 48 + 16;

    private static byte[] sample(String name) throws Exception {
        return Files.readAllBytes(SampleLogs.get(name));
    }

    @Test
    void badMagicNamesTheHeader() throws Exception {
        byte[] f = sample("pdla-written-3.41-bzip2.darshan");
        f[8] ^= 0x55;
        DarshanFormatException e = assertThrows(DarshanFormatException.class, () -> new DarshanReader().read(f));
        assertEquals("header", e.region());
        assertTrue(e.getMessage().contains("magic"), e.getMessage());
    }

    @Test
    void truncatedLogNamesTheRegionThatStopsShort() throws Exception {
        // the last 500 bytes are DXT_MPIIO segments
        byte[] f = sample("pdla-written-32-ranks.darshan");
        byte[] cut = Arrays.copyOf(f, f.length - 500);
        DarshanLog log = new DarshanReader().read(cut);
        DarshanFormatException e = log.firstError();
        assertNotNull(e, "a truncated log must report an error");
        assertTrue(e.getMessage().contains("file offset"), e.getMessage());
        assertTrue(e.region().contains("module"), e.region());
    }

    @Test
    void regionThatDoesNotInflateIsReportedWithItsOffset() throws Exception {
        byte[] f = sample("pdla-written-3.41-bzip2.darshan");
        ByteBuffer b = ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN);
        long posixOff = b.getLong(POSIX_SLOT);
        for (int i = 2; i < 20; i++) f[(int) posixOff + i] = (byte) 0xff;
        DarshanLog log = new DarshanReader().read(f);
        DarshanFormatException e = log.module(ModuleId.POSIX).error();
        assertNotNull(e);
        assertEquals("POSIX module", e.region());
    }

    /**
     * Found by the cli's BadInputFilesFuzzTest in CI (one bit flipped in the header's partial flag): a module id this
     * build does not know, flagged incomplete but with no region, reached the refusal's message as a null module.
     */
    @Test
    void anUnknownModuleFlaggedIncompleteIsRefusedByName() throws Exception {
        byte[] f = sample("pdla-written-3.41-bzip2.darshan");
        int unknown = ModuleId.values().length;
        ByteBuffer b = ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(24, b.getLong(24) | 1L << unknown);
        DarshanLog log = new DarshanReader().read(f);
        StringBuilder out = new StringBuilder(), err = new StringBuilder();
        ParserReport.IncompleteLogException e = assertThrows(ParserReport.IncompleteLogException.class, () ->
                new ParserReport(out, err, java.time.ZoneId.of("UTC")).print(log, new ParserReport.Options(false, false, false, false, false)));
        assertTrue(e.getMessage().contains("<UNKNOWN> module"), e.getMessage());
        StringBuilder shown = new StringBuilder();
        new ParserReport(shown, new StringBuilder(), java.time.ZoneId.of("UTC")).print(log, new ParserReport.Options(false, false, false, false, true));
        assertTrue(shown.toString().contains("The <UNKNOWN> module contains incomplete data"), shown.toString());
        assertTrue(shown.toString().contains("POSIX module data"), "the known modules are still printed");
    }

    /**
     * Found by DarshanLogFuzzTest (8 zero bytes at 59.58 % of this log, inside its bzip2 job region): the damaged block
     * inflated to 4 MiB of garbage before its checksum failed, 23 MB were allocated, and the job was read from that
     * garbage because enough bytes had come before the error. The job region is inflated no further than a job record
     * can be, and its error is thrown.
     */
    @Test
    void aDamagedJobRegionIsRefusedWithoutInflatingItsGarbage() throws Exception {
        byte[] f = sample("pdla-written-3.41-bzip2.darshan");
        DarshanHeader h = DarshanReader.header(f);
        int at = (int) Math.min(f.length - 8, Math.floor(0.5958 * (f.length - 8 + 1)));
        assertTrue(at >= h.job().offset() && at + 8 <= h.job().offset() + h.job().length(), "the damage is in the job region");
        ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN).putLong(at, 0);
        io.pdla.testing.fuzz.Bounded.Outcome<DarshanLog> o = io.pdla.testing.fuzz.Bounded.run(f.length, () -> new DarshanReader().read(f));
        assertTrue(o.error() instanceof DarshanFormatException, "refused: " + o.error());
        assertEquals("job", ((DarshanFormatException) o.error()).region());
    }

    /**
     * Every 8 bytes anywhere in the compressed regions set to 0, -1, 42 or Long.MAX_VALUE, one place at a time, stay within
     * DarshanLogFuzzTest's bound. Before
     * the regions' inflation was capped (RegionDecoder.MAX_RATIO), 117 of 4,552 such overwrites of this log (zeros, -1,
     * 42, Long.MAX_VALUE) allocated more, up to 94 MB: a damaged bzip2 block inflates garbage until its checksum fails.
     */
    @Test
    void overwrittenBytesInAnyRegionStayWithinTheFuzzBound() throws Exception {
        byte[] f = sample("pdla-written-3.41-bzip2.darshan");
        DarshanHeader h = DarshanReader.header(f);
        long allowance = 64L * Math.max(f.length, new DarshanReader().read(f).uncompressedRecordBytes()) + (16L << 20);
        for (long v : new long[]{0, -1, 42, Long.MAX_VALUE}) {
            for (int p = (int) h.job().offset(); p + 8 <= f.length; p++) {
                byte[] bad = f.clone();
                ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putLong(p, v);
                io.pdla.testing.fuzz.Bounded.run(java.time.Duration.ofSeconds(10), allowance, () -> new DarshanReader().read(bad));
            }
        }
    }

    @Test
    void hugeLengthsInTheHeaderNeverAllocateThem() throws Exception {
        byte[] f = sample("pdla-written-3.41-bzip2.darshan");
        ByteBuffer b = ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(POSIX_SLOT + 8, 1L << 40); // POSIX length: a terabyte
        DarshanLog log = new DarshanReader().read(f);
        assertNotNull(log.module(ModuleId.POSIX).error(), "length beyond the file is reported");
    }

    @Test
    void randomByteDamageNeverEscapesAsAnythingButAFormatError() throws Exception {
        long seed = RandomGenerator.getDefault().nextLong();
        RandomGenerator rnd = RandomGenerator.of("L64X128MixRandom");
        rnd = java.util.random.RandomGeneratorFactory.<RandomGenerator>of("L64X128MixRandom").create(seed);
        byte[] orig = sample("pdla-written-32-ranks.darshan");
        for (int t = 0; t < 200; t++) {
            byte[] f = orig.clone();
            int n = 1 + rnd.nextInt(8);
            for (int i = 0; i < n; i++) f[rnd.nextInt(f.length)] = (byte) rnd.nextInt(256);
            if (rnd.nextBoolean()) f = Arrays.copyOf(f, rnd.nextInt(f.length));
            try {
                new DarshanReader(64L << 20).read(f);
            } catch (DarshanFormatException expected) {
                assertNotNull(expected.region());
            } catch (RuntimeException | OutOfMemoryError e) {
                fail("seed " + seed + " trial " + t + ": " + e, e);
            }
        }
    }
}
