package io.pdla.darshan;

import io.pdla.testing.fuzz.Bounded;
import io.pdla.testing.fuzz.Mutation;
import io.pdla.testing.fuzz.Mutations;
import io.pdla.testing.fuzz.Mutations.Field;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.statistics.Statistics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 18, bad input: every sample log ({@link SampleLogs}: vendored and written), and each modern (3.41+) one
 * rewritten uncompressed so that damage reaches the records themselves instead of stopping at zlib, mutated and
 * read as {@code pdla darshan parse --all} does. The outcome is a log (with a damaged module's error kept in
 * the module) or a {@link DarshanFormatException} naming region and file offset; never another exception, a
 * hang or an allocation beyond the input's size.
 */
class DarshanLogFuzzTest {
    private static final Map<String, byte[]> LOGS = new LinkedHashMap<>();
    private static final Map<String, Long> INFLATED = new LinkedHashMap<>();

    static {
        try {
            for (Path p : SampleLogs.all()) {
                byte[] b = Files.readAllBytes(p);
                String name = p.getFileName().toString();
                LOGS.put(name, b);
                DarshanLog log = new DarshanReader().read(b);
                INFLATED.put(name, log.uncompressedRecordBytes());
                byte[] raw = uncompressed(b);
                if (raw != null) {
                    LOGS.put(name + " (uncompressed)", raw);
                    INFLATED.put(name + " (uncompressed)", (long) raw.length);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("sample logs in " + SampleLogs.dir(), e);
        }
    }

    /** A modern log with every region stored uncompressed (comp_type 2), or null if the log is older or damaged. */
    static byte[] uncompressed(byte[] log) throws DarshanFormatException {
        DarshanHeader h = DarshanReader.header(log);
        if (!h.atLeast(3, 41) || h.compression() == Compression.NONE) return null;
        RegionDecoder dec = new RegionDecoder(h.compression(), 1L << 30);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] header = java.util.Arrays.copyOf(log, h.headerBytes());
        out.write(header, 0, header.length);
        RegionDecoder.Decoded job = dec.decode(log, h.job(), "job");
        if (job.error() != null) return null;
        out.write(job.data(), 0, job.length());
        ByteBuffer hb = ByteBuffer.wrap(header).order(h.order());
        List<Region> regions = new ArrayList<>();
        regions.add(h.names());
        for (Region r : h.modules()) regions.add(r);
        for (int i = 0; i < regions.size(); i++) {
            Region r = regions.get(i);
            int at = i == 0 ? 32 : 48 + 16 * (i - 1);
            if (!r.present()) continue;
            RegionDecoder.Decoded d = dec.decode(log, r, "region");
            if (d.error() != null) return null;
            hb.putLong(at, out.size());
            hb.putLong(at + 8, d.length());
            out.write(d.data(), 0, d.length());
        }
        header[16] = 2;
        byte[] all = out.toByteArray();
        System.arraycopy(header, 0, all, 0, header.length);
        return all;
    }

    @Provide
    Arbitrary<String> log() {
        return Arbitraries.of(new ArrayList<>(LOGS.keySet()));
    }

    @Provide
    Arbitrary<Mutation> damage() {
        // the header: version string, magic, compression, partial flags, name region and the first module slots
        List<Field> header = List.of(new Field("version", 0, 8), new Field("magic", 8, 8), new Field("comp_type", 16, 2),
                new Field("partial_flag", 24, 8), new Field("name offset", 32, 8), new Field("name length", 40, 8),
                new Field("POSIX offset", 64, 8), new Field("POSIX length", 72, 8), new Field("MPI-IO offset", 80, 8),
                new Field("MPI-IO length", 88, 8), new Field("module version", 1072, 4), new Field("DXT slot", 48 + 16 * 11 + 8, 8));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, Mutations.some(ByteOrder.LITTLE_ENDIAN)),
                net.jqwik.api.Tuple.of(1, Mutations.some(ByteOrder.BIG_ENDIAN)),
                net.jqwik.api.Tuple.of(2, Mutations.atFields(ByteOrder.LITTLE_ENDIAN, header)));
    }

    @Property(tries = 400)
    void aDamagedLogIsReadOrRejectedNamingRegionAndOffset(@ForAll("log") String name, @ForAll("damage") Mutation m) {
        check(name, m);
    }

    @Property(tries = 2000)
    @Tag("heavy")
    void manyDamagedLogs(@ForAll("log") String name, @ForAll("damage") Mutation m) {
        check(name, m);
    }

    private static void check(String name, Mutation m) {
        byte[] bad = m.apply(LOGS.get(name));
        long allowance = 64L * Math.max(bad.length, INFLATED.get(name)) + (16L << 20);
        // the reader: bounded by the input and what the sample inflates to (it allocates about 4x that when whole)
        Bounded.Outcome<DarshanLog> read = Bounded.run(java.time.Duration.ofSeconds(10), allowance, () -> new DarshanReader().read(bad));
        Bounded.Outcome<?> o = read;
        if (!read.failed()) {
            // darshan-parser's and darshan-dxt-parser's text: their allocation follows the text they print (about 250
            // bytes per inflated byte)
            DarshanLog log = read.value();
            o = Bounded.run(java.time.Duration.ofSeconds(20), 1024L * log.uncompressedRecordBytes() + (16L << 20), () -> {
                StringBuilder text = new StringBuilder(), err = new StringBuilder();
                try {
                    new ParserReport(text, err, ZoneOffset.UTC).print(log, new ParserReport.Options(true, true, true, true, true));
                } catch (ParserReport.IncompleteLogException e) {
                    assertNotNull(log.firstError(), "incomplete only when a region is damaged");
                }
                // and darshan-dxt-parser's: every segment of every DXT record, with a damaged region's error reported
                text.setLength(0);
                try {
                    boolean whole = new DxtReport(text, err, ZoneOffset.UTC).print(log, true);
                    // false exactly when a LUSTRE or DXT region stopped short or could not be decoded at all (a
                    // version no decoder knows: a note, not an error), as darshan-dxt-parser's "failed to parse"
                    // (a log without DXT data is reported as such before any region is looked at)
                    boolean dxt = log.header().modules()[ModuleId.DXT_POSIX.ordinal()].present()
                            || log.header().modules()[ModuleId.DXT_MPIIO.ordinal()].present();
                    boolean unreadable = dxt && log.modules().stream().anyMatch(md -> (md.module() == ModuleId.LUSTRE
                            || md.module() == ModuleId.DXT_POSIX || md.module() == ModuleId.DXT_MPIIO)
                            && log.header().modules()[md.index()].present() && (md.error() != null || md.note() != null));
                    assertEquals(unreadable, !whole, "the DXT report is cut short exactly when a LUSTRE or DXT region is unreadable");
                } catch (ParserReport.IncompleteLogException e) {
                    fail("--show-incomplete prints partial modules: " + e.getMessage());
                }
                return log.firstError() == null ? "read whole" : "read, damaged region reported";
            });
        }
        Statistics.label("mutation").collect(m.kind());
        Statistics.label("log").collect(name.contains("uncompressed") ? "uncompressed rewrite" : "as shipped");
        if (!o.failed()) {
            Statistics.label("outcome").collect(String.valueOf(o.value()));
            return;
        }
        if (o.error() instanceof DarshanFormatException e) {
            assertNotNull(e.region(), e.getMessage());
            assertTrue(e.getMessage().contains("region: " + e.region()) && e.getMessage().contains("file offset"), e.getMessage());
            Statistics.label("outcome").collect("DarshanFormatException (" + e.region() + ")");
        } else {
            fail(name + ", damage '" + m + "' gave " + Bounded.describe(o.error()), o.error());
        }
    }
}
