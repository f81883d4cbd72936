package io.pdla.cli;

import io.pdla.mpiio.launch.MpjJob;
import io.pdla.cli.programs.HintsAndViewsFuzzProgram;
import io.pdla.mpiio.MPIIOException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 18, bad input: hints (every key the shim and its drivers and interceptors read, with nonsense values:
 * sizes, numbers, enums, cb_config_list, simpfs_layout, paths) given at open and to setInfo, and views
 * (negative counts, overflowing extents, etypes that do not divide the filetype, displacements near 2^63,
 * unknown datareps, MPJ datatypes) given to setView, in a 2-rank MPJ job (multicore). In the cli module because
 * that is where the whole product is on the class path: sim-pfs, the tracer and redirect read hints too. Every call either works
 * or raises {@link MPIIOException}; an ERR_ARG names the hint or argument at fault. A FileType builder may refuse
 * its arguments itself (IllegalArgumentException naming them) before any MPI call.
 */
class HintsAndViewsFuzzTest {
    private static final String SEP = "\u001f";
    private static final List<String> SIZE_KEYS = List.of("cb_buffer_size", "ind_rd_buffer_size", "ind_wr_buffer_size", "pdla_bytes_per_aggregator",
            "pdla_min_fd_size", "striping_unit", "pdla_readahead_bytes", "pdla_delegate_page_size", "pdla_delegate_cache_bytes",
            "pdla_delegate_direct_bytes", "hdfs_block_size");
    private static final List<String> INT_KEYS = List.of("cb_nodes", "striping_factor", "hdfs_replication", "pdla_catalog_wait_ms");
    private static final List<String> ENUM_KEYS = List.of("romio_cb_read", "romio_cb_write", "romio_ds_read", "romio_ds_write", "pdla_fd_partition",
            "pdla_fd_stripe_io", "pdla_cb_exchange", "posix_direct_io", "hdfs_storage_policy");
    private static final List<String> PATH_KEYS = List.of("pdla_shared_fp_dir", "pdla_trace_dir", "pdla_catalog", "simpfs_root", "simpfs_config");

    @Provide
    Arbitrary<String> sizeValue() {
        return Arbitraries.oneOf(
                Arbitraries.of("", " ", "0", "-1", "1", "4k", "1m", "1.5g", "8E", "16E", "9223372036854775807", "9223372036854775808",
                        "99999999999999999999k", "1e3", "0x10", "4 k", "4kb", "4KiB", "-4k", "1t", "k", "NaN", "\u0000"),
                Arbitraries.longs().map(Object::toString),
                Combinators.combine(Arbitraries.longs().between(-5, 1L << 50), Arbitraries.of("", "k", "m", "g", "t", "p", "e", "x")).as((n, u) -> n + u));
    }

    @Provide
    Arbitrary<String> intValue() {
        return Arbitraries.oneOf(Arbitraries.of("", "0", "-1", "2147483648", "-2147483649", "1.0", "one", " 3 "), Arbitraries.integers().map(Object::toString));
    }

    @Provide
    Arbitrary<String> enumValue() {
        return Arbitraries.of("enable", "disable", "automatic", "true", "false", "TRUE", "yes", "1", "", "maybe", "even", "stripe", "transpose",
                "static-cyclic", "group-cyclic", "nonsense", "HOT", "ALL_SSD", "\u00e9");
    }

    @Provide
    Arbitrary<String> cbConfigList() {
        return Arbitraries.oneOf(Arbitraries.of("*:1", "*:*", "localhost:2", "*:-1", "*:0", ":", "*:", "a:b:c", "*:99999999999", "", ",", "*:1,*:2",
                "host1:1,host2", "*:2147483647"), Arbitraries.strings().withChars("*:,-0123456789ah").ofMaxLength(12));
    }

    @Provide
    Arbitrary<String> layout() {
        return Arbitraries.oneOf(Arbitraries.of("1dh", "1dv", "2d:2", "2d:0", "2d:-3", "2d:99999999", "2d:", "2d", "hybrid", "hybrid:x", "", "3d:1", "1DH"),
                Arbitraries.strings().withChars("12dhvy:-0").ofMaxLength(8));
    }

    @Provide
    Arbitrary<String> pathValue() {
        // absolute paths only: the job runs in the module directory (and as root), which a relative or "/" trace dir would litter
        // '@' is the job's temporary directory (the program substitutes it): a path that does not exist yet
        return Arbitraries.of("\u0000", "@/missing/pdla/x", "@/cases.txt", "/proc/self/nope", "/dev/null", "/dev/null/below");
    }

    @Provide
    Arbitrary<Map.Entry<String, String>> hint() {
        return Arbitraries.oneOf(
                Combinators.combine(Arbitraries.of(SIZE_KEYS), sizeValue()).as(Map::entry),
                Combinators.combine(Arbitraries.of(INT_KEYS), intValue()).as(Map::entry),
                Combinators.combine(Arbitraries.of(ENUM_KEYS), enumValue()).as(Map::entry),
                Combinators.combine(Arbitraries.of(PATH_KEYS), pathValue()).as(Map::entry),
                cbConfigList().map(v -> Map.entry("cb_config_list", v)),
                layout().map(v -> Map.entry("simpfs_layout", v)),
                // true/false or a path; a relative path is the working directory's, which the job must not litter (see pathValue)
                Arbitraries.of("true", "TRUE", " true ", "false", "FALSE", "", " ", "@/export.darshan", "@/missing/pdla/export.darshan", "/dev/null/below")
                        .map(v -> Map.entry("pdla_trace_darshan", v)),
                Arbitraries.of("tracer", "nonsense", ",,,", "none", "tracer,tracer", "redirect", "").map(v -> Map.entry("pdla_interceptors", v)),
                Arbitraries.of("", " ", "app with spaces", "\u0000", "x".repeat(5000)).map(v -> Map.entry("pdla_app", v)));
    }

    @Provide
    Arbitrary<String> hintCase() {
        return Combinators.combine(Arbitraries.of("open", "setinfo"), Arbitraries.of("posix", "simpfs"), hint().list().ofMinSize(1).ofMaxSize(3))
                .as((kind, store, hints) -> kind + "\t" + store + "\t" + hints.stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(SEP)));
    }

    @Provide
    Arbitrary<String> filetypeSpec() {
        Arbitrary<Long> nastyLong = Arbitraries.oneOf(Arbitraries.of(0L, -1L, 1L, 3L, 4096L, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 62, (1L << 31) + 1),
                Arbitraries.longs().between(-100, 100_000));
        Arbitrary<Integer> nastyInt = Arbitraries.oneOf(Arbitraries.of(0, -1, 1, 2, 7, Integer.MAX_VALUE, Integer.MIN_VALUE, 1 << 30),
                Arbitraries.integers().between(-10, 5000));
        Arbitrary<String> list = nastyLong.list().ofMinSize(0).ofMaxSize(4).map(l -> l.stream().map(Object::toString).collect(Collectors.joining(",")));
        Arbitrary<String> ints = nastyInt.list().ofMinSize(0).ofMaxSize(3).map(l -> l.stream().map(Object::toString).collect(Collectors.joining(",")));
        return Arbitraries.oneOf(
                nastyLong.map(n -> "bytes:" + n),
                Combinators.combine(nastyInt, nastyLong, nastyLong).as((c, b, s) -> "vector:" + c + ":" + b + ":" + s),
                Combinators.combine(nastyInt, nastyLong, nastyLong, nastyLong, nastyLong).as((c, b, s, lb, ex) -> "vector:" + c + ":" + b + ":" + s + ":" + lb + ":" + ex),
                Combinators.combine(list, list).as((b, d) -> "indexed:" + b + ":" + d),
                Combinators.combine(ints, ints, ints, Arbitraries.of("C", "F"), nastyInt).as((s, sub, st, o, e) -> "subarray:" + s + ":" + sub + ":" + st + ":" + o + ":" + e),
                Combinators.combine(nastyInt, nastyInt, nastyInt).as((c, b, s) -> "mpj-vector:" + c + ":" + b + ":" + s),
                nastyInt.map(c -> "mpj-contiguous:" + c));
    }

    @Provide
    Arbitrary<String> viewCase() {
        Arbitrary<Long> disp = Arbitraries.oneOf(Arbitraries.of(0L, -1L, Long.MAX_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE, (1L << 62) + 7, 1L << 40),
                Arbitraries.longs().between(0, 1 << 20));
        Arbitrary<Long> etype = Arbitraries.oneOf(Arbitraries.of(1L, 2L, 3L, 4L, 8L, 0L, -1L, -4L, 1L << 40, Long.MAX_VALUE), Arbitraries.longs().between(1, 64));
        Arbitrary<String> datarep = Arbitraries.of("native", "native", "native", "internal", "external32", "", "NATIVE", "nonsense");
        Arbitrary<String> nonsense = Combinators.combine(disp, etype, filetypeSpec(), datarep).as((d, e, f, r) -> "view\t" + d + "\t" + e + "\t" + f + "\t" + r);
        // views a program could mean, at the edges: they pass setView, and the write and read through them hit the file-offset arithmetic
        Arbitrary<Long> edgeDisp = Arbitraries.oneOf(Arbitraries.of(0L, Long.MAX_VALUE - 4096, Long.MAX_VALUE - 1, (1L << 62) - 3, 1L << 40),
                Arbitraries.longs().between(0, 1 << 20));
        Arbitrary<String> plausibleType = Arbitraries.oneOf(
                Combinators.combine(Arbitraries.integers().between(1, 64), Arbitraries.of(1L, 4L, 8L, 4096L), Arbitraries.of(8L, 4096L, 1L << 40, Long.MAX_VALUE / 2))
                        .as((c, b, st) -> "vector:" + c + ":" + b + ":" + st),
                Combinators.combine(Arbitraries.integers().between(1, 16), Arbitraries.of(4L, 8L), Arbitraries.of(16L, 64L), Arbitraries.of(0L, 3L, -8L),
                        Arbitraries.of(64L, 1L << 62, Long.MAX_VALUE)).as((c, b, st, lb, ex) -> "vector:" + c + ":" + b + ":" + st + ":" + lb + ":" + ex),
                Arbitraries.of("indexed:4,4:0,9223372036854775000", "indexed:8,8:16,0", "subarray:64,64:8,8:56,56:C:8", "mpj-vector:4:2:3", "mpj-contiguous:16"));
        Arbitrary<String> plausible = Combinators.combine(edgeDisp, Arbitraries.of(1L, 4L), plausibleType)
                .as((d, e, f) -> "view\t" + d + "\t" + e + "\t" + f + "\tnative");
        return Arbitraries.oneOf(nonsense, plausible);
    }

    @Property(tries = 1, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.NONE)
    void hintsAtOpenAndSetInfoWorkOrRaiseErrArgNamingTheHint(@ForAll @Size(min = 60, max = 60) List<@net.jqwik.api.From("hintCase") String> cases) throws Exception {
        runAndJudge(cases);
    }

    @Property(tries = 1, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.NONE)
    void viewsWorkOrRaiseMpiioExceptionNamingTheArgument(@ForAll @Size(min = 60, max = 60) List<@net.jqwik.api.From("viewCase") String> cases) throws Exception {
        runAndJudge(cases);
    }

    @Property(tries = 6, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.NONE)
    @Tag("heavy")
    void manyMoreHintsAndViews(@ForAll @Size(min = 60, max = 60) List<@net.jqwik.api.From("hintCase") String> hints,
                               @ForAll @Size(min = 60, max = 60) List<@net.jqwik.api.From("viewCase") String> views) throws Exception {
        List<String> all = new ArrayList<>(hints);
        all.addAll(views);
        runAndJudge(all);
    }

    private static final Pattern CASE = Pattern.compile("CASE (\\d+) R(\\d+) (\\S+)(?: (\\S+))?(?: (.*))?");

    private static void runAndJudge(List<String> cases) throws Exception {
        Path dir = Files.createTempDirectory("pdla-hints-fuzz");
        try {
            Path file = dir.resolve("cases.txt");
            Files.write(file, String.join("\n", cases).getBytes(StandardCharsets.UTF_8));
            MpjJob.Result r = MpjJob.builder(HintsAndViewsFuzzProgram.class.getName()).processes(2).classPath(MpjJob.currentClassPath())
                    .env("PDLA_TRACE_DIR", dir.resolve("trace").toString())
                    .args(List.of(file.toString(), dir.toString())).build().run(180);
            String out = r.output();
            if (System.getProperty("pdla.fuzz.dump") != null) Files.writeString(Path.of(System.getProperty("pdla.fuzz.dump")), out);
            assertFalse(r.timedOut(), "job timed out (a hang on bad input):\n" + out);
            Map<String, String> outcome = new LinkedHashMap<>();
            for (String line : out.lines().toList()) {
                Matcher m = CASE.matcher(line);
                if (m.matches()) outcome.put(m.group(1) + "/" + m.group(2), line);
            }
            for (int rank = 0; rank < 2; rank++) assertTrue(out.lines().anyMatch(("DONE " + rank + " failures=0")::equals), "rank " + rank + " did not finish:\n" + out);
            List<String> violations = new ArrayList<>();
            for (int i = 0; i < cases.size(); i++) {
                List<String[]> ranks = new ArrayList<>();
                for (int rank = 0; rank < 2; rank++) {
                    String line = outcome.get(i + "/" + rank);
                    assertTrue(line != null, "no outcome for case " + i + " (" + cases.get(i) + ") on rank " + rank + ":\n" + out);
                    Matcher m = CASE.matcher(line);
                    assertTrue(m.matches());
                    ranks.add(new String[]{m.group(3), m.group(4), m.group(5) == null ? "" : m.group(5)});
                }
                String v = judge(cases.get(i), ranks);
                if (v == null && ranks.get(0)[0].equals("MPIIO") && !ranks.get(0)[2].contains((cases.get(i).startsWith("view") ? "view-" : "case-") + i)) {
                    v = cases.get(i).replace("\t", " | ") + ": the error does not name the file: " + ranks.get(0)[2];
                }
                if (v != null) violations.add("case " + i + ": " + v);
            }
            assertTrue(violations.isEmpty(), violations.size() + " of " + cases.size() + " cases broke the rules:\n" + String.join("\n", violations));
            assertEquals(0, r.exitCode(), out);
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Null when the case's outcome on both ranks follows the rules, else what is wrong. */
    private static String judge(String c, List<String[]> ranks) {
        String[] f = c.split("\t", -1);
        String what = c.replace("\t", " | ").replace(SEP, " ; ");
        String kind = ranks.get(0)[0], cls = ranks.get(0)[1];
        for (String[] r : ranks) {
            if (!r[0].equals(kind) || !java.util.Objects.equals(r[1], cls)) {
                return what + ": the ranks disagree: " + ranks.stream().map(x -> String.join(" ", x)).toList();
            }
        }
        switch (kind) {
            case "OK" -> Statistics.label("outcome").collect(f[0] + ": OK");
            case "MPIIO" -> {
                Statistics.label("outcome").collect(f[0] + ": MPIIOException " + cls);
                if (cls.equals("ERR_ARG") && !f[0].equals("view")) {
                    // the rank that found the bad hint names it (others may only say that rank 0 failed)
                    boolean named = false;
                    for (String kv : f[2].split(SEP, -1)) {
                        for (String[] r : ranks) named |= r[2].contains(kv.substring(0, kv.indexOf('=')));
                    }
                    if (!named) return what + ": ERR_ARG without naming the hint: " + ranks.get(0)[2];
                }
            }
            case "BUILDER" -> {
                if (!f[0].equals("view")) return what + ": only a datatype builder may refuse before MPI, got " + cls;
                boolean mpj = f[3].startsWith("mpj-");
                // pdla's FileType builders refuse with IllegalArgumentException; MPJ's own constructors with mpi.MPIException
                String expected = mpj ? "mpi.MPIException" : IllegalArgumentException.class.getName();
                if (!cls.equals(expected)) return what + ": a builder refused with " + cls + " " + ranks.get(0)[2];
                Statistics.label("outcome").collect("view: " + (mpj ? "MPJ" : "FileType") + " builder refused its arguments");
            }
            default -> {
                return what + ": raised " + cls + ": " + ranks.get(0)[2];
            }
        }
        return null;
    }
}
