package io.pdla.patterns.online;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.AppIdentity;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.IoCall;
import io.pdla.patterns.db.PatternSpool;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import io.pdla.storage.posix.PosixDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The interceptor over a real file through the chain: a second pass that starts as the first hands the first on
 * after its first {@value RepeatProbe#REQUESTS} requests as one compact record, and matches nothing after that.
 */
class OnlineInterceptorTest {
    private static final int RANKS = 4, RANK = 3, BLOCK = 4096, SEGMENTS = 200;
    private static final AppIdentity APP = new AppIdentity("OnlineInterceptorTest", RANKS);

    @TempDir
    Path dir;

    @Test
    void theSecondPassHandsTheFirstOnEarlyAndStopsMatching() throws Exception {
        Path data = dir.resolve("data.dat");
        Files.write(data, new byte[RANKS * SEGMENTS * BLOCK]);
        Path db = dir.resolve("patterns");
        Map<String, String> hints = Map.of(OnlineSettings.HINT_ONLINE, "true", OnlineSettings.HINT_PATTERNS, db.toString());
        InterceptorChain chain = new InterceptorChain(List.of(new OnlineProvider().create(hints)));
        OnlineStats stats = OnlineStats.global();
        long matchedBefore = stats.requestsMatched.get(), handedBefore = stats.filesHandedOn.get();

        pass(chain, data, hints);
        assertEquals(SEGMENTS, stats.requestsMatched.get() - matchedBefore, "the first pass is matched whole");
        assertEquals(List.of(), records(db), "one pass establishes nothing");

        pass(chain, data, hints);
        assertEquals(SEGMENTS + RepeatProbe.REQUESTS, stats.requestsMatched.get() - matchedBefore,
                "the second pass is matched only until its start repeats the first");
        assertEquals(1, stats.filesHandedOn.get() - handedBefore);
        List<Path> records = awaitRecords(db);
        assertEquals(1, records.size(), records.toString());
        PassRecord r = PassRecord.decode(Files.readAllBytes(records.get(0)));
        assertEquals(APP, r.app());
        assertEquals(data.toUri(), r.file());
        assertEquals(hints, r.hints());
        assertEquals(SEGMENTS, r.pass().requests(), "the first pass's result: " + r.pass());
        assertEquals(1, r.pass().patterns().size(), r.pass().toString());
        assertEquals((long) RANK * BLOCK, r.pass().patterns().get(0).geometry().start());

        pass(chain, data, hints);
        assertEquals(SEGMENTS + RepeatProbe.REQUESTS, stats.requestsMatched.get() - matchedBefore, "a handed-on file is not matched again");
    }

    /**
     * The shim's straight path (an everyday read with a chain of watchers only: the store call, then the chain told
     * through {@code observed}, no {@link IoCall}) matches as the chain does: the same pass record, as early.
     */
    @Test
    void readsToldAfterTheyRanHandOnTheSameRecordAsReadsThroughTheChain() throws Exception {
        Path data = dir.resolve("data.dat");
        Files.write(data, new byte[RANKS * SEGMENTS * BLOCK]);
        Map<Boolean, PassRecord> byWay = new java.util.HashMap<>();
        for (boolean told : new boolean[]{false, true}) {
            Path db = dir.resolve("patterns-" + told);
            Map<String, String> hints = Map.of(OnlineSettings.HINT_ONLINE, "true", OnlineSettings.HINT_PATTERNS, db.toString());
            InterceptorChain chain = new InterceptorChain(List.of(new OnlineProvider().create(hints)));
            assertTrue(chain.observersOnly(), "online PDLA only watches: a chain of it alone may take the straight path");
            OnlineStats stats = OnlineStats.global();
            long matchedBefore = stats.requestsMatched.get();
            pass(chain, data, hints, told);
            pass(chain, data, hints, told);
            assertEquals(SEGMENTS + RepeatProbe.REQUESTS, stats.requestsMatched.get() - matchedBefore,
                    (told ? "told" : "through the chain") + ": the first pass whole, the second until its start repeats");
            List<Path> records = awaitRecords(db);
            assertEquals(1, records.size(), records.toString());
            byWay.put(told, PassRecord.decode(Files.readAllBytes(records.get(0))));
        }
        PassRecord chained = byWay.get(false), told = byWay.get(true);
        assertEquals(chained.file(), told.file());
        assertEquals(chained.pass().requests(), told.pass().requests());
        assertEquals(chained.pass().patterns().size(), told.pass().patterns().size());
        for (int i = 0; i < chained.pass().patterns().size(); i++) {
            assertEquals(chained.pass().patterns().get(i).geometry(), told.pass().patterns().get(i).geometry(), "pattern " + i);
        }
    }

    /** A pass longer than the window ends at the first read past it: the rest of the open is matched no more. */
    @Test
    void aPassOverTheWindowEndsThereAndIsToldNoFurtherRead() throws Exception {
        Path data = dir.resolve("data.dat");
        Files.write(data, new byte[RANKS * SEGMENTS * BLOCK]);
        Path db = dir.resolve("patterns");
        Map<String, String> hints = Map.of(OnlineSettings.HINT_ONLINE, "true", OnlineSettings.HINT_PATTERNS, db.toString(),
                OnlineSettings.HINT_WINDOW, "16");
        InterceptorChain chain = new InterceptorChain(List.of(new OnlineProvider().create(hints)));
        OnlineStats stats = OnlineStats.global();
        long matched = stats.requestsMatched.get(), passes = stats.passes.get(), givenUp = stats.passesGivenUp.get();
        for (boolean told : new boolean[]{false, true}) {
            pass(chain, data, hints, told);
        }
        assertEquals(2 * 17, stats.requestsMatched.get() - matched, "each pass: its 16 requests and the one past the window");
        assertEquals(2, stats.passes.get() - passes, "each pass ended once, though its close came later");
        assertEquals(2, stats.passesGivenUp.get() - givenUp);
        assertEquals(List.of(), records(db), "passes given up establish nothing");
    }

    /** A write told to the interceptor is not matched (reads only), and does not fail. */
    @Test
    void aWriteToldAfterItRanIsNotMatched() throws Exception {
        Path data = oneBlockFile();
        Map<String, String> hints = onlineHints();
        InterceptorChain chain = new InterceptorChain(List.of(new OnlineProvider().create(hints)));
        PosixDriver driver = new PosixDriver();
        try (StorageFile f = driver.open(data.toUri(), OpenOptions.readOnly())) {
            FileContext ctx = new FileContext("data.dat", data.toUri(), FileContext.MODE_RDONLY, RANK, RANKS, APP, hints, driver, f);
            chain.opened(ctx);
            OnlineStats stats = OnlineStats.global();
            long before = stats.requestsMatched.get();
            chain.observed(ctx, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, 0, BLOCK, BLOCK, 1, 2);
            assertEquals(before, stats.requestsMatched.get());
            chain.observed(ctx, IoOp.READ, Positioning.EXPLICIT_OFFSET, 0, BLOCK, BLOCK, 1, 2);
            assertEquals(before + 1, stats.requestsMatched.get());
            chain.closing(ctx);
        }
    }

    /**
     * The hand-off's writer starts at the first read-only open, idle, not at the first hand-off in the middle of a pass
     * (where starting it took the CPU from the rank's thread); one writer per interceptor, whatever the opens.
     */
    @Test
    void theHandOffsWriterStartsAtTheFirstOpenOnce() throws Exception {
        Path data = oneBlockFile();
        Map<String, String> hints = onlineHints();
        InterceptorChain chain = new InterceptorChain(List.of(new OnlineProvider().create(hints)));
        long writers = writers();
        PosixDriver driver = new PosixDriver();
        for (int open = 1; open <= 2; open++) {
            try (StorageFile f = driver.open(data.toUri(), OpenOptions.readOnly())) {
                FileContext ctx = new FileContext("data.dat", data.toUri(), FileContext.MODE_RDONLY, RANK, RANKS, APP, hints, driver, f);
                chain.opened(ctx);
                assertEquals(writers + 1, writers(), "open " + open + ": one writer, started by the first open");
                chain.closing(ctx);
                chain.closed(ctx);
            }
        }
    }

    private static long writers() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("pdla-online-handoff") && t.isAlive()).count();
    }

    /** One read-only open of rank {@link #RANK}: its strided blocks, one read each, then the close. */
    private static void pass(InterceptorChain chain, Path data, Map<String, String> hints) throws IOException {
        pass(chain, data, hints, false);
    }

    /** As above; {@code told}: each read made of the store, then told to the chain, as the shim's straight path does. */
    private static void pass(InterceptorChain chain, Path data, Map<String, String> hints, boolean told) throws IOException {
        PosixDriver driver = new PosixDriver();
        StorageFile f = driver.open(data.toUri(), OpenOptions.readOnly());
        FileContext ctx = new FileContext("data.dat", data.toUri(), FileContext.MODE_RDONLY, RANK, RANKS, APP, hints, driver, f);
        chain.opened(ctx);
        ByteBuffer buf = ByteBuffer.allocate(BLOCK);
        for (int s = 0; s < SEGMENTS; s++) {
            buf.clear();
            long off = ((long) s * RANKS + RANK) * BLOCK;
            if (told) {
                long t1 = System.nanoTime();
                int n = f.read(off, buf);
                assertEquals(BLOCK, n);
                chain.observed(ctx, IoOp.READ, Positioning.EXPLICIT_OFFSET, off, BLOCK, n, t1, System.nanoTime());
            } else {
                assertEquals(BLOCK, chain.execute(IoCall.data(ctx, IoOp.READ, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(off, BLOCK), buf)));
            }
        }
        chain.closing(ctx);
        chain.closed(ctx);
        f.close();
    }

    /** The hand-off is written by a background thread: its record, once there (or nothing after 30 s). */
    private static List<Path> awaitRecords(Path db) throws Exception {
        for (int i = 0; i < 3000; i++) {
            List<Path> r = records(db);
            if (!r.isEmpty()) return r;
            Thread.sleep(10);
        }
        return records(db);
    }

    private static List<Path> records(Path db) throws IOException {
        List<Path> out = new ArrayList<>();
        Path spool = PatternSpool.dirOf(db);
        if (!Files.isDirectory(spool)) return out;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(spool, "*" + PatternSpool.SUFFIX)) {
            s.forEach(out::add);
        }
        return out;
    }

    /** A one-block data file in the test's directory. */
    private Path oneBlockFile() throws java.io.IOException {
        Path data = dir.resolve("data.dat");
        Files.write(data, new byte[BLOCK]);
        return data;
    }

    /** Online PDLA on, its patterns in the test's directory. */
    private Map<String, String> onlineHints() {
        return Map.of(OnlineSettings.HINT_ONLINE, "true", OnlineSettings.HINT_PATTERNS, dir.resolve("p").toString());
    }
}
