package io.pdla.tracer.format;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.InterceptorChain;
import io.pdla.testing.fuzz.Bounded;
import io.pdla.testing.fuzz.Mutation;
import io.pdla.testing.fuzz.Mutations;
import io.pdla.testing.fuzz.Mutations.Field;
import io.pdla.tracer.counters.CounterLog;
import io.pdla.tracer.counters.DarshanText;
import io.pdla.tracer.testing.TracedJob;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 18, bad input: a real 2-rank trace directory (application traces, rank 0's aggregator layer, counter
 * files, job.json) with one file damaged by {@link Mutations}, then read the way {@code pdla trace dump},
 * {@code pdla counters} and the pattern analyzer read it. Every outcome is either a successful read or a
 * {@link TraceFormatException} naming the damaged file and a byte within it (or a
 * {@link TraceDirectoryException} naming the directory); never another exception, never a hang, never an
 * allocation beyond what the file's size allows ({@link Bounded}).
 */
class TraceFilesFuzzTest {
    private static Path valid;

    @BeforeContainer
    static void traceAJob() throws Exception {
        Path tmp = Files.createTempDirectory("pdla-trace-fuzz");
        int nprocs = 2, block = 1024, segments = 6;
        long region = (long) nprocs * block * segments, window = 3 * block;
        TracedJob job = new TracedJob(Files.createDirectories(tmp.resolve("data")), tmp.resolve("trace"), nprocs, "Fuzzed");
        try (job) {
            job.runRanks(rank -> {
                TracedJob.RankFile f = job.open(rank, "strided.dat", nprocs);
                ExtentList.Builder mine = ExtentList.builder();
                for (int s = 0; s < segments; s++) mine.add(((long) s * nprocs + rank) * block, block);
                InterceptorChain.Terminal engine = call -> {
                    if (rank == 0) {
                        for (long from = 0; from < region; from += window) {
                            ExtentList w = ExtentList.of(from, Math.min(window, region - from));
                            long t0 = System.nanoTime();
                            f.ctx.file().writev(w, ByteBuffer.wrap(TracedJob.contentOf(w)));
                            f.chain().aggregated(f.ctx, IoOp.WRITE, w, t0, System.nanoTime());
                        }
                    }
                    return call.extents().totalBytes();
                };
                f.writeThrough(Positioning.EXPLICIT_OFFSET, mine.build(), engine);
                for (int i = 0; i < 5; i++) f.write(Positioning.INDIVIDUAL_POINTER, false, ExtentList.of(region + (i * 2L + rank) * 100, 64));
                f.close();
            });
        }
        valid = job.traceDir;
        TraceDirectory.open(valid).summaries(); // writes nothing, but proves the sample is whole
        if (!Files.exists(valid.resolve(JobInfo.FILE_NAME))) JobInfo.merge(valid, TraceDirectory.readSummaries(valid)).write(valid, "fuzz");
        assertEquals(List.of(0), TraceDirectory.open(valid).ranksWith(TraceLayer.AGGREGATOR), "the sample has an aggregator layer");
    }

    @AfterContainer
    static void cleanUp() throws IOException {
        if (valid == null) return;
        try (Stream<Path> s = Files.walk(valid.getParent())) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Provide
    Arbitrary<String> traceFile() {
        return Arbitraries.of("rank-0.pdlt", "rank-1.pdlt", "rank-0.agg.pdlt");
    }

    /** Header fields of a trace (README: magic, version, flags, rank, nprocs, ...). */
    @Provide
    Arbitrary<Mutation> traceDamage() {
        List<Field> header = List.of(new Field("magic", 0, 8), new Field("version", 8, 2), new Field("flags", 10, 2),
                new Field("rank", 12, 4), new Field("nprocs", 16, 4), new Field("origin", 28, 8));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, Mutations.some(ByteOrder.BIG_ENDIAN)),
                net.jqwik.api.Tuple.of(1, Mutations.atFields(ByteOrder.BIG_ENDIAN, header)));
    }

    @Provide
    Arbitrary<Mutation> headerDamage() {
        return Mutations.atFields(ByteOrder.BIG_ENDIAN, List.of(new Field("rank", 12, 4), new Field("nprocs", 16, 4), new Field("pid", 20, 8),
                new Field("origin epoch", 28, 8), new Field("origin nanoTime", 36, 8), new Field("clock domain", 44, 8)));
    }

    /** Counter files, also with the CRC recomputed so that a damaged count or length gets past the checksum. */
    @Provide
    Arbitrary<Mutation> counterDamage() {
        List<Field> header = List.of(new Field("magic", 0, 8), new Field("version", 8, 2), new Field("rank", 12, 4),
                new Field("nprocs", 16, 4), new Field("requests", 60, 8), new Field("command length", 77, 4));
        Arbitrary<Mutation> raw = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, Mutations.some(ByteOrder.BIG_ENDIAN)),
                net.jqwik.api.Tuple.of(1, Mutations.atFields(ByteOrder.BIG_ENDIAN, header)));
        return Arbitraries.oneOf(raw, raw.map(m -> new Mutation(m.kind() + ", CRC fixed", m.description() + ", CRC recomputed", b -> {
            byte[] out = m.apply(b);
            if (out.length < 4) return out;
            CRC32C crc = new CRC32C();
            crc.update(out, 0, out.length - 4);
            ByteBuffer.wrap(out).putInt(out.length - 4, (int) crc.getValue());
            return out;
        })));
    }

    @Provide
    Arbitrary<Mutation> jsonDamage() {
        Arbitrary<Mutation> text = Arbitraries.of("{", "}", "null", "[]", "\"app\":null,", "\"files\":{\"x\":1},", "\"startEpochNanos\":1e999,",
                        "\"hints\":[1,2],", "\u0000", "{\"app\":{\"command\":null,\"processes\":-5}}")
                .map(s -> new Mutation("json text", "insert " + s + " after the first brace", b -> {
                    byte[] ins = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    byte[] out = new byte[b.length + ins.length];
                    int p = Math.min(1, b.length);
                    System.arraycopy(b, 0, out, 0, p);
                    System.arraycopy(ins, 0, out, p, ins.length);
                    System.arraycopy(b, p, out, p + ins.length, b.length - p);
                    return out;
                }));
        return Arbitraries.oneOf(Mutations.some(ByteOrder.BIG_ENDIAN), text);
    }

    @Property(tries = 300)
    void aDamagedTraceIsReadOrRejectedNamingFileAndByte(@ForAll("traceFile") String name, @ForAll("traceDamage") Mutation m) throws Exception {
        check(name, m);
    }

    /**
     * A job whose other ranks opened no file (read with missing ranks allowed, as {@code --allow-missing} and the
     * pattern analyzer do): a damaged process count in the one header must not make the readers walk or list
     * 2^31 ranks.
     */
    @Property(tries = 100)
    void aDamagedHeaderOfALoneRankIsReadOrRejected(@ForAll("headerDamage") Mutation m) throws Exception {
        Path dir = copyOfValid();
        try {
            for (String gone : List.of("rank-1.pdlt", "rank-1.pdlc")) Files.delete(dir.resolve(gone));
            Files.deleteIfExists(dir.resolve(JobInfo.FILE_NAME));
            Path f = dir.resolve("rank-0.pdlt");
            byte[] bad = m.apply(Files.readAllBytes(f));
            Files.write(f, bad);
            Bounded.Outcome<Long> o = Bounded.run(1L << 20, () -> {
                TraceDirectory d = TraceDirectory.open(dir, true);
                long n = TraceText.dump(d, false, new PrintWriter(new StringWriter()));
                return n + d.missingRanks().size() + d.ranks().size();
            });
            if (!o.failed()) {
                Statistics.label("outcome").collect("read whole");
                return;
            }
            Throwable e = unwrap(o.error());
            if (System.getProperty("pdla.fuzz.debug") != null) System.out.println("DEBUG " + m + " -> " + e);
            assertTrue(e instanceof TraceFormatException || e instanceof TraceDirectoryException, Bounded.describe(o.error()));
            assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
            Statistics.label("outcome").collect(e.getClass().getSimpleName());
        } finally {
            delete(dir);
        }
    }

    @Property(tries = 300)
    void aDamagedCounterFileIsReadOrRejectedNamingFileAndByte(@ForAll("counterDamage") Mutation m) throws Exception {
        check("rank-" + (m.description().length() % 2) + ".pdlc", m);
    }

    @Property(tries = 150)
    void aDamagedJobJsonIsReadOrRejectedNamingTheFile(@ForAll("jsonDamage") Mutation m) throws Exception {
        Path dir = copyOfValid();
        try {
            Path f = dir.resolve(JobInfo.FILE_NAME);
            byte[] bad = m.apply(Files.readAllBytes(f));
            Files.write(f, bad);
            Bounded.Outcome<JobInfo> o = Bounded.run(bad.length, () -> JobInfo.read(f));
            if (o.failed()) {
                assertTrue(o.error() instanceof IOException, "an IOException, not " + Bounded.describe(o.error()));
                assertTrue(o.error().getMessage().contains(f.toString()), "names the file: " + o.error().getMessage());
                Statistics.label("outcome").collect(o.error().getClass().getSimpleName());
            } else {
                Statistics.label("outcome").collect("read");
            }
        } finally {
            delete(dir);
        }
    }

    /** Stray files whose names look like a rank's but are not: a rank number beyond int, leading zeros, an empty file. */
    @Property(tries = 60)
    void strayRankFilesAreRejectedNamingThem(@ForAll("strayName") String name) throws Exception {
        Path dir = copyOfValid();
        try {
            Files.write(dir.resolve(name), new byte[0]);
            Bounded.Outcome<Long> o = Bounded.run(1 << 16, () -> readEverything(dir));
            if (o.failed()) {
                Throwable e = unwrap(o.error());
                assertTrue(e instanceof TraceFormatException || e instanceof TraceDirectoryException, Bounded.describe(o.error()));
                assertTrue(e.getMessage().contains(dir.toString()), "names the directory or file: " + e.getMessage());
                Statistics.label("outcome").collect(e.getClass().getSimpleName());
            } else {
                Statistics.label("outcome").collect("read");
            }
        } finally {
            delete(dir);
        }
    }

    @Provide
    Arbitrary<String> strayName() {
        return Arbitraries.oneOf(
                Arbitraries.longs().between(2, Long.MAX_VALUE).map(r -> "rank-" + r + ".pdlt"),
                Arbitraries.longs().between(2, Long.MAX_VALUE).map(r -> "rank-" + r + ".pdlc"),
                Arbitraries.strings().numeric().ofMinLength(20).ofMaxLength(40).map(r -> "rank-" + r + ".agg.pdlt"),
                Arbitraries.of("rank-00.pdlt", "rank-01.pdlc", "rank-1.agg.pdlt", "rank-0.pdlc.tmp-1"));
    }

    private void check(String name, Mutation m) throws Exception {
        Path dir = copyOfValid();
        try {
            Path f = dir.resolve(name);
            byte[] bad = m.apply(Files.readAllBytes(f));
            Files.write(f, bad);
            long total = 0;
            try (Stream<Path> s = Files.list(dir)) {
                total = s.mapToLong(p -> p.toFile().length()).sum();
            }
            // The usual bound (64 bytes per input byte, 8 MiB fixed) plus one run's worth of records: a run whose timing
            // mode is SAME or UNIFORM stores up to MAX_RUN requests in a few bytes by design (IOR's patterns compress to
            // that), so a damaged count or mode can make the readers stream MAX_RUN records, each a short-lived object of
            // about 100 bytes, before the damage shows (seed 7813868347991810624: two 0xff bytes inserted mid-file,
            // 2.7 MB over the usual bound). The count stays capped by MAX_RUN, so the work stays bounded.
            long oneRunOfRecords = (long) TraceFormat.MAX_RUN * 128;
            Bounded.Outcome<Long> o = Bounded.run(java.time.Duration.ofSeconds(5), 64 * total + (8L << 20) + oneRunOfRecords, () -> readEverything(dir));
            Statistics.label("mutation").collect(m.kind().replace(", CRC fixed", ""));
            if (!o.failed()) {
                Statistics.label("outcome").collect("read whole");
                return;
            }
            Throwable e = unwrap(o.error());
            if (e instanceof TraceFormatException tf) {
                assertEquals(f, tf.file(), "names the damaged file: " + e.getMessage());
                assertTrue(tf.bytePosition() >= 0 && tf.bytePosition() <= bad.length, "a byte within it: " + e.getMessage());
                assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains("byte"), e.getMessage());
                Statistics.label("outcome").collect("TraceFormatException (file, byte)");
            } else if (e instanceof TraceDirectoryException td) {
                assertEquals(dir, td.dir(), e.getMessage());
                assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
                Statistics.label("outcome").collect("TraceDirectoryException (directory)");
            } else {
                fail("damage '" + m + "' of " + name + " gave " + Bounded.describe(o.error()), o.error());
            }
        } finally {
            delete(dir);
        }
    }

    /** What {@code pdla trace dump} (both layers) and {@code pdla counters --total --perf} read. */
    private static long readEverything(Path dir) throws IOException {
        TraceDirectory d = TraceDirectory.open(dir);
        StringWriter out = new StringWriter();
        long n = TraceText.dump(d, false, new PrintWriter(out));
        for (int r : d.ranksWith(TraceLayer.AGGREGATOR)) {
            try (TraceFileReader reader = d.reader(r, TraceLayer.AGGREGATOR)) {
                for (TraceRun run = reader.nextRun(); run != null; run = reader.nextRun()) n += run.count();
            }
        }
        n += d.job().files().size();
        CounterLog log = CounterLog.load(dir);
        DarshanText.print(log, true, true, new PrintWriter(out));
        return n + log.records().size();
    }

    private static Throwable unwrap(Throwable e) {
        while (e instanceof UncheckedIOException && e.getCause() != null) e = e.getCause();
        return e;
    }

    private static Path copyOfValid() throws IOException {
        Path dir = Files.createTempDirectory("pdla-trace-fuzz-try");
        try (Stream<Path> s = Files.list(valid)) {
            for (Path p : s.toList()) Files.copy(p, dir.resolve(p.getFileName()));
        } catch (IOException | RuntimeException e) {
            delete(dir);
            throw e;
        }
        return dir;
    }

    /** Deletes the try's directory whatever is in it (a failing try must not leave it behind in /tmp). */
    private static void delete(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
