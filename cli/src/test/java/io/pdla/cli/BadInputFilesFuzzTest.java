package io.pdla.cli;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.AppIdentity;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.IoCall;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.posix.PosixDriver;
import io.pdla.testing.fuzz.Bounded;
import io.pdla.testing.fuzz.Mutation;
import io.pdla.testing.fuzz.Mutations;
import io.pdla.tracer.runtime.TraceSettings;
import io.pdla.tracer.runtime.Tracing;
import io.pdla.tracer.runtime.TracingInterceptor;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 18: the real {@code pdla} command line ({@link PdlaCommand#commandLine()}, as {@code main} runs it) on
 * mutated input files: a trace directory ({@code pdla trace dump}, {@code pdla counters}, {@code pdla why}), a
 * Darshan log ({@code pdla darshan parse}, {@code pdla why}, {@code pdla what-if}) and an {@code --intervals} CSV ({@code pdla why}). Exit 0 when the
 * damage left the input readable, else exit 2 with a message naming the file (or, for a trace directory, the
 * directory or the rank file); never a stack trace, never exit 1.
 */
class BadInputFilesFuzzTest {
    private static Path root;
    private static Path validTrace;
    private static byte[] darshanLog;
    private static Path validPatterns;
    private static Path validCatalog;
    private static final String CSV = "file,start,end,bytes_read,bytes_written,requests,small_requests,collective,ranks,stripe_count,storage_targets,metadata_time\n"
            + "/scratch/a.dat,0,10.5,1000,0,10,2,1,0;1;2,4,1;2;3;4,0.25\n"
            + "/scratch/b.dat,4,8,0,4096,4,4,0,3,1,7,\n"
            + "/scratch/c.dat,6,12,,100,,,true,,,,0\n";

    @BeforeContainer
    static void validInputs() throws Exception {
        root = Files.createTempDirectory("pdla-cli-fuzz");
        validTrace = root.resolve("trace");
        Path data = root.resolve("shared.dat");
        PosixDriver driver = new PosixDriver();
        int ranks = 2;
        for (int rank = 0; rank < ranks; rank++) {
            FileContext ctx = new FileContext("shared.dat", data.toUri(), 9, rank, ranks, new AppIdentity("FuzzedApp", ranks),
                    Map.of(), driver, driver.open(data.toUri(), OpenOptions.createReadWrite()));
            InterceptorChain chain = new InterceptorChain(List.of(new TracingInterceptor(Map.of(TraceSettings.HINT_DIR, validTrace.toString()))));
            chain.opened(ctx);
            for (int i = 0; i < 8; i++) {
                long off = ((long) i * ranks + rank) * 1000;
                IoOp op = i % 3 == 2 ? IoOp.READ : IoOp.WRITE;
                chain.execute(IoCall.data(ctx, op, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(off, 1000), ByteBuffer.allocate(1000)));
            }
            chain.closing(ctx);
            ctx.file().close();
        }
        Tracing.finishAll();
        darshanLog = Files.readAllBytes(io.pdla.darshan.WrittenLogs.get("pdla-written-3.41-bzip2.darshan"));
        // the valid inputs pass
        assertEquals(0, pdla("trace", "dump", validTrace.toString()).code());
        assertEquals(0, pdla("counters", validTrace.toString(), "--total", "--perf").code());
        assertEquals(0, pdla("why", validTrace.toString()).code(), pdla("why", validTrace.toString()).err());
        assertEquals(0, pdla("analyze", validTrace.toString()).code(), pdla("analyze", validTrace.toString()).err());
        validPatterns = root.resolve("patterns");
        validCatalog = root.resolve("catalog");
        Run a = pdla("analyze", validTrace.toString(), "--db", validPatterns.toString());
        assertEquals(0, a.code(), a.err());
        Run d = pdla("daemon", "--db", validCatalog.toString(), "--patterns", validPatterns.toString(), "--once",
                "--replica-root", root.resolve("replicas").toUri().toString());
        assertEquals(0, d.code(), d.out() + d.err());
        assertEquals(0, pdla("patterns", "--db", validPatterns.toString(), "list").code());
        Run l = pdla("replicas", "list", "--db", validCatalog.toString());
        assertEquals(0, l.code(), l.err());
    }

    @AfterContainer
    static void cleanUp() throws IOException {
        if (root == null) return;
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    record Run(int code, String out, String err) {
    }

    static Run pdla(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = PdlaCommand.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    /** Exit 0, or exit 2 naming {@code names}; no stack trace either way. */
    private static void judge(Run r, String what, String... names) {
        String all = r.out() + r.err();
        assertFalse(all.contains("\tat ") || all.contains("Exception in thread") || all.contains("Caused by:"),
                what + ": a stack trace: " + r.err());
        if (r.code() == 0) {
            Statistics.label("outcome").collect("exit 0");
            return;
        }
        assertEquals(2, r.code(), what + ": bad input is exit 2: " + r.err());
        boolean named = false;
        for (String n : names) named |= r.err().contains(n);
        assertTrue(named, what + ": the message names " + List.of(names) + ": " + r.err());
        Statistics.label("outcome").collect("exit 2, file named");
    }

    @Provide
    Arbitrary<String> traceCommand() {
        return Arbitraries.of("trace dump", "trace dump --csv", "counters --total --perf", "why", "analyze");
    }

    @Provide
    Arbitrary<String> rankFile() {
        return Arbitraries.of("rank-0.pdlt", "rank-1.pdlt", "rank-0.pdlc", "rank-1.pdlc");
    }

    @Property(tries = 100)
    void commandsOnADamagedTraceDirectoryExit0Or2NamingTheFile(@ForAll("traceCommand") String command, @ForAll("rankFile") String file,
                                                                @ForAll("damage") Mutation m) throws Exception {
        Path dir = Files.createTempDirectory(root, "try");
        try {
            try (Stream<Path> s = Files.list(validTrace).filter(Files::isRegularFile)) {
                for (Path p : s.toList()) Files.copy(p, dir.resolve(p.getFileName()));
            }
            Path f = dir.resolve(file);
            Files.write(f, m.apply(Files.readAllBytes(f)));
            String[] words = command.split(" ");
            String[] args = new String[words.length + 1];
            args[0] = words[0];
            args[1] = dir.toString();
            System.arraycopy(words, 1, args, 2, words.length - 1);
            if (words[0].equals("trace")) args = new String[]{"trace", "dump", dir.toString(), command.endsWith("--csv") ? "--csv" : "--allow-missing"};
            if (words[0].equals("analyze")) args = new String[]{"analyze", dir.toString(), "--db", dir.resolve("patterns.db").toString()};
            String[] a = args;
            Run r = Bounded.run(java.time.Duration.ofSeconds(10), 256L << 20, () -> pdla(a)).value();
            Statistics.label("command").collect(words[0]);
            judge(r, "pdla " + String.join(" ", args) + " after '" + m + "' of " + file, f.toString(), dir.toString());
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Provide
    Arbitrary<String> storeCommand() {
        return Arbitraries.of("patterns list", "replicas list");
    }

    /**
     * A record of the pattern database or the replica catalog damaged through the JE API (a value, or a key),
     * then {@code pdla patterns list} / {@code pdla replicas list}: exit 0 (a damaged replica entry is listed as
     * such) or 2 naming the store; never a stack trace.
     */
    @Property(tries = 30)
    void storeCommandsOnADamagedRecordExit0Or2NamingTheStore(@ForAll("storeCommand") String command, @ForAll("damage") Mutation m,
                                                             @ForAll boolean key, @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 1000) int pick)
            throws Exception {
        boolean patterns = command.startsWith("patterns");
        Path store = Files.createTempDirectory(root, "store");
        try {
            try (Stream<Path> s = Files.list(patterns ? validPatterns : validCatalog)) {
                for (Path p : s.filter(p -> p.toString().endsWith(".jdb")).toList()) Files.copy(p, store.resolve(p.getFileName()));
            }
            if (!patterns) Files.writeString(store.resolve("replicated-originals"), "");
            String damaged = damageOneRecord(store, m, key, pick);
            String[] args = patterns ? new String[]{"patterns", "--db", store.toString(), "list"} : new String[]{"replicas", "list", "--db", store.toString()};
            Run r = Bounded.run(java.time.Duration.ofSeconds(20), 512L << 20, () -> pdla(args)).value();
            Statistics.label("command").collect(command + " (" + damaged + ")");
            judge(r, "pdla " + String.join(" ", args) + " after '" + m + "' of a " + (key ? "key" : "value") + " in " + damaged, store.toString());
        } finally {
            try (Stream<Path> s = Files.walk(store)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** A store written by another pdla (another schema version in its meta record): exit 2 naming the store. */
    @Property(tries = 12)
    void storeCommandsOnAnotherSchemaVersionExit2NamingTheStore(@ForAll("storeCommand") String command,
                                                               @ForAll("otherVersion") int version) throws Exception {
        boolean patterns = command.startsWith("patterns");
        Path store = Files.createTempDirectory(root, "store");
        try {
            try (Stream<Path> s = Files.list(patterns ? validPatterns : validCatalog)) {
                for (Path p : s.filter(p -> p.toString().endsWith(".jdb")).toList()) Files.copy(p, store.resolve(p.getFileName()));
            }
            if (!patterns) Files.writeString(store.resolve("replicated-originals"), "");
            io.pdla.bdb.EnvironmentSettings settings = io.pdla.bdb.EnvironmentSettings.readWrite();
            try (com.sleepycat.je.Environment env = io.pdla.bdb.JeEnvironments.open(store, settings);
                 com.sleepycat.je.Database meta = env.openDatabase(null, "meta", io.pdla.bdb.JeEnvironments.databaseConfig(settings))) {
                io.pdla.bdb.JeTransactions.run(env, 1, txn -> {
                    io.pdla.bdb.SchemaVersion.write(meta, txn, version);
                    return null;
                });
            }
            String[] args = patterns ? new String[]{"patterns", "--db", store.toString(), "list"} : new String[]{"replicas", "list", "--db", store.toString()};
            Run r = pdla(args);
            assertEquals(2, r.code(), "version " + version + ": " + r.err());
            judge(r, "pdla " + String.join(" ", args) + " with schema version " + version, store.toString());
            assertTrue(r.err().contains("schema version " + version), r.err());
        } finally {
            try (Stream<Path> s = Files.walk(store)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Provide
    Arbitrary<Integer> otherVersion() {
        // other than both stores' own (catalog 2, pattern database 3) and 1, which the catalog moves to 2 at open
        return Arbitraries.of(0, 4, 5, 99, -1, Integer.MAX_VALUE);
    }

    /** Damages the value or key of one record of one of the environment's databases; returns "database" named. */
    private static String damageOneRecord(Path store, Mutation m, boolean key, int pick) {
        io.pdla.bdb.EnvironmentSettings settings = io.pdla.bdb.EnvironmentSettings.readWrite();
        try (com.sleepycat.je.Environment env = io.pdla.bdb.JeEnvironments.open(store, settings)) {
            List<String> names = new java.util.ArrayList<>();
            for (String n : env.getDatabaseNames()) {
                if (n.contains(".by-")) continue;   // secondary indexes: JE derives them
                try (com.sleepycat.je.Database db = env.openDatabase(null, n, io.pdla.bdb.JeEnvironments.databaseConfig(settings))) {
                    if (db.count() > 0) names.add(n);
                }
            }
            String name = names.get(pick % names.size());
            try (com.sleepycat.je.Database db = env.openDatabase(null, name, io.pdla.bdb.JeEnvironments.databaseConfig(settings))) {
                List<byte[][]> rows = new java.util.ArrayList<>();
                try (com.sleepycat.je.Cursor c = db.openCursor(null, null)) {
                    com.sleepycat.je.DatabaseEntry k = new com.sleepycat.je.DatabaseEntry(), v = new com.sleepycat.je.DatabaseEntry();
                    while (c.getNext(k, v, com.sleepycat.je.LockMode.DEFAULT) == com.sleepycat.je.OperationStatus.SUCCESS) {
                        rows.add(new byte[][]{k.getData(), v.getData()});
                    }
                }
                if (rows.isEmpty()) return name + " (empty)";
                byte[][] row = rows.get(pick % rows.size());
                try {
                    if (key) {
                        byte[] k2 = m.apply(row[0]);
                        db.delete(null, new com.sleepycat.je.DatabaseEntry(row[0]));
                        db.put(null, new com.sleepycat.je.DatabaseEntry(k2.length == 0 ? new byte[]{0} : k2), new com.sleepycat.je.DatabaseEntry(row[1]));
                    } else {
                        db.put(null, new com.sleepycat.je.DatabaseEntry(row[0]), new com.sleepycat.je.DatabaseEntry(m.apply(row[1])));
                    }
                } catch (RuntimeException refused) {
                    return name + " (JE refused the damage)";
                }
                return name;
            }
        }
    }

    @Provide
    Arbitrary<Mutation> damage() {
        return Mutations.some(ByteOrder.BIG_ENDIAN);
    }

    @Provide
    Arbitrary<Mutation> logDamage() {
        return Arbitraries.oneOf(Mutations.some(ByteOrder.LITTLE_ENDIAN),
                Mutations.atFields(ByteOrder.LITTLE_ENDIAN, List.of(new Mutations.Field("version", 0, 8), new Mutations.Field("magic", 8, 8),
                        new Mutations.Field("POSIX offset", 64, 8), new Mutations.Field("POSIX length", 72, 8))));
    }

    @Property(tries = 100)
    void darshanCommandsOnADamagedLogExit0Or2NamingTheFile(@ForAll("darshanCommand") String command, @ForAll("logDamage") Mutation m) throws Exception {
        Path f = Files.createTempFile(root, "log", ".darshan");
        try {
            Files.write(f, m.apply(darshanLog));
            String[] args = (command + " " + f).split(" ");
            Run r = Bounded.run(java.time.Duration.ofSeconds(10), 256L << 20, () -> pdla(args)).value();
            Statistics.label("command").collect(command);
            judge(r, "pdla " + String.join(" ", args) + " after '" + m + "'", f.toString());
        } finally {
            Files.delete(f);
        }
    }

    @Provide
    Arbitrary<String> darshanCommand() {
        return Arbitraries.of("darshan parse", "darshan parse --all", "why", "what-if");
    }

    /** CSV-level damage as well as byte-level: cells replaced by nonsense, columns added or dropped. */
    @Provide
    Arbitrary<Mutation> csvDamage() {
        Arbitrary<Mutation> cells = Arbitraries.of("", "-1", "NaN", "Infinity", "1e400", "-0", "9223372036854775808", "x", "1;;2", ";",
                        "2147483648", "true", "0x10", " ", "1,2", "\"a\"", "1e-400", "-5e300")
                .flatMap(v -> Arbitraries.integers().between(0, 40).map(k -> new Mutation("cell", "cell " + k + " := '" + v + "'", b -> {
                    String[] lines = new String(b, StandardCharsets.UTF_8).split("\n", -1);
                    int line = k % lines.length;
                    String[] cellsOf = lines[line].split(",", -1);
                    cellsOf[k % cellsOf.length] = v;
                    lines[line] = String.join(",", cellsOf);
                    return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
                })));
        return Arbitraries.oneOf(cells, cells.list().ofMinSize(2).ofMaxSize(4).map(l -> l.stream().reduce(Mutation::andThen).orElseThrow()),
                Mutations.some(ByteOrder.BIG_ENDIAN));
    }

    @Property(tries = 150)
    void whyWithADamagedIntervalsCsvExits0Or2NamingTheLine(@ForAll("csvDamage") Mutation m, @ForAll boolean json) throws Exception {
        Path f = Files.createTempFile(root, "intervals", ".csv");
        try {
            Files.write(f, m.apply(CSV.getBytes(StandardCharsets.UTF_8)));
            String[] args = json ? new String[]{"why", "--intervals", f.toString(), "--json"} : new String[]{"why", "--intervals", f.toString()};
            Run r = Bounded.run(java.time.Duration.ofSeconds(10), 64L << 20, () -> pdla(args)).value();
            Statistics.label("mutation").collect(m.kind());
            judge(r, "pdla why --intervals after '" + m + "'", f.toString());
            if (r.code() == 2 && r.err().contains(f + ":")) Statistics.label("line named").collect("file:line");
        } finally {
            Files.delete(f);
        }
    }
}
