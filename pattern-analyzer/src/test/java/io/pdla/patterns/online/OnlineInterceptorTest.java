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
 * after its first {@value RepeatProbe#REQUESTS} requests as one compact record, and matches nothing after that;
 * whether each pass is an open or the passes are sweeps of one open that start over at the same first read, through
 * the chain or told after the read ran.
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
     * through {@code observed}, no {@link IoCall}) matches as the chain does: the same pass record, as early. And a
     * job that keeps the file open over its passes hands on the very record a job reopening it per pass does, as
     * early (in its second pass, after the probe's requests), either way.
     */
    @Test
    void readsToldAfterTheyRanHandOnTheSameRecordAsReadsThroughTheChain() throws Exception {
        Path data = dir.resolve("data.dat");
        Files.write(data, new byte[RANKS * SEGMENTS * BLOCK]);
        Map<String, PassRecord> byWay = new java.util.LinkedHashMap<>();
        for (boolean keepOpen : new boolean[]{false, true}) {
            for (boolean told : new boolean[]{false, true}) {
                String way = (told ? "told" : "through the chain") + (keepOpen ? ", one open" : ", an open per pass");
                Path db = dir.resolve("patterns-" + told + "-" + keepOpen);
                Map<String, String> hints = Map.of(OnlineSettings.HINT_ONLINE, "true", OnlineSettings.HINT_PATTERNS, db.toString());
                InterceptorChain chain = new InterceptorChain(List.of(new OnlineProvider().create(hints)));
                assertTrue(chain.observersOnly(), "online PDLA only watches: a chain of it alone may take the straight path");
                OnlineStats stats = OnlineStats.global();
                long matchedBefore = stats.requestsMatched.get(), handedBefore = stats.filesHandedOn.get();
                if (keepOpen) {
                    try (Open o = new Open(chain, data, hints, told)) {
                        for (int pass = 0; pass < 3; pass++) o.strided(SEGMENTS, RANKS);
                    }
                } else {
                    pass(chain, data, hints, told);
                    pass(chain, data, hints, told);
                }
                assertEquals(SEGMENTS + RepeatProbe.REQUESTS, stats.requestsMatched.get() - matchedBefore,
                        way + ": the first pass whole, the second until its start repeats, nothing after");
                assertEquals(1, stats.filesHandedOn.get() - handedBefore, way);
                List<Path> records = awaitRecords(db);
                assertEquals(1, records.size(), way + ": " + records);
                byWay.put(way, PassRecord.decode(Files.readAllBytes(records.get(0))));
            }
        }
        assertEquals(4, byWay.size());
        PassRecord chained = byWay.get("through the chain, an open per pass");
        assertEquals(SEGMENTS, chained.pass().requests(), chained.pass().toString());
        byWay.forEach((way, r) -> {
            assertEquals(chained.app(), r.app(), way);
            assertEquals(chained.file(), r.file(), way);
            assertEquals(chained.hints().keySet(), r.hints().keySet(), way);   // each way its own pattern database
            assertEquals(chained.pass().requests(), r.pass().requests(), way);
            assertEquals(chained.pass().bytes(), r.pass().bytes(), way);
            assertEquals(chained.pass().patterns().size(), r.pass().patterns().size(), way);
            for (int i = 0; i < chained.pass().patterns().size(); i++) {
                assertEquals(chained.pass().patterns().get(i).geometry(), r.pass().patterns().get(i).geometry(), way + ": pattern " + i);
                assertEquals(chained.pass().patterns().get(i).requests(), r.pass().patterns().get(i).requests(), way + ": pattern " + i);
            }
        });
    }

    /**
     * One open, three passes of the strided pattern, through the chain: each restart at the pass's first block ends
     * a pass as a close would, so the second pass's start hands the first on early, and the third is not matched.
     */
    @Test
    void oneOpenLoopingOverTheFileHandsTheFirstPassOnInTheSecond() throws Exception {
        Path data = dir.resolve("data.dat");
        Files.write(data, new byte[RANKS * SEGMENTS * BLOCK]);
        Path db = dir.resolve("patterns");
        Map<String, String> hints = Map.of(OnlineSettings.HINT_ONLINE, "true", OnlineSettings.HINT_PATTERNS, db.toString());
        InterceptorChain chain = new InterceptorChain(List.of(new OnlineProvider().create(hints)));
        OnlineStats stats = OnlineStats.global();
        long matched = stats.requestsMatched.get(), handed = stats.filesHandedOn.get(), passes = stats.passes.get();
        try (Open o = new Open(chain, data, hints, false)) {
            o.strided(SEGMENTS, RANKS);
            assertEquals(SEGMENTS, stats.requestsMatched.get() - matched, "the first pass is matched whole");
            assertEquals(0, stats.passes.get() - passes, "the first pass is not over before the reads start over");
            o.strided(1, RANKS);
            assertEquals(1, stats.passes.get() - passes, "the first block read again ended the first pass");
            assertEquals(List.of(), records(db), "one pass establishes nothing");
            o.strided(SEGMENTS, RANKS, 1);
            assertEquals(SEGMENTS + RepeatProbe.REQUESTS, stats.requestsMatched.get() - matched,
                    "the second pass is matched only until its start repeats the first");
            assertEquals(1, stats.filesHandedOn.get() - handed, "handed on within the open, before its close");
            assertEquals(2, stats.passes.get() - passes);
            o.strided(SEGMENTS, RANKS);
        }
        assertEquals(SEGMENTS + RepeatProbe.REQUESTS, stats.requestsMatched.get() - matched, "a handed-on file is not matched again");
        assertEquals(2, stats.passes.get() - passes, "nor does its close end a pass");
        List<Path> records = awaitRecords(db);
        assertEquals(1, records.size(), records.toString());
        PassRecord r = PassRecord.decode(Files.readAllBytes(records.get(0)));
        assertEquals(SEGMENTS, r.pass().requests(), "the first pass's result: " + r.pass());
        assertEquals(1, r.pass().patterns().size(), r.pass().toString());
        assertEquals((long) RANK * BLOCK, r.pass().patterns().get(0).geometry().start());
    }

    /**
     * One open whose passes start alike but differ (every other pass twice the stride, half the blocks): every
     * restart ends a pass, none repeats the one before, so nothing is handed on, either way.
     */
    @Test
    void oneOpenWhosePassesDifferHandsNothingOn() throws Exception {
        Path data = dir.resolve("data.dat");
        Files.write(data, new byte[RANKS * SEGMENTS * BLOCK]);
        for (boolean told : new boolean[]{false, true}) {
            Path db = dir.resolve("patterns-" + told);
            Map<String, String> hints = Map.of(OnlineSettings.HINT_ONLINE, "true", OnlineSettings.HINT_PATTERNS, db.toString());
            InterceptorChain chain = new InterceptorChain(List.of(new OnlineProvider().create(hints)));
            OnlineStats stats = OnlineStats.global();
            long matched = stats.requestsMatched.get(), handed = stats.filesHandedOn.get(), passes = stats.passes.get(),
                    givenUp = stats.passesGivenUp.get();
            try (Open o = new Open(chain, data, hints, told)) {
                for (int pass = 0; pass < 4; pass++) {
                    if (pass % 2 == 0) o.strided(SEGMENTS, RANKS);
                    else o.strided(SEGMENTS / 2, 2 * RANKS);
                }
            }
            assertEquals(4, stats.passes.get() - passes, told + ": four passes in one open, each ended");
            assertEquals(0, stats.passesGivenUp.get() - givenUp, told + ": each within the window");
            assertEquals(2 * SEGMENTS + 2 * (SEGMENTS / 2), stats.requestsMatched.get() - matched, told + ": every read matched");
            assertEquals(0, stats.filesHandedOn.get() - handed, "told " + told);
            Thread.sleep(100);   // a hand-off would have been written by now
            assertEquals(List.of(), records(db), told + ": passes that differ establish nothing");
        }
    }

    /**
     * A pass given up over its window within an open does not end the watch: the next pass of the open (the reads
     * starting over at the first block) is matched, and a repeat of it is handed on, as early.
     */
    @Test
    void aPassGivenUpWithinAnOpenLetsTheNextPassesOfTheOpenBeMatched() throws Exception {
        Path data = dir.resolve("data.dat");
        Files.write(data, new byte[RANKS * SEGMENTS * BLOCK]);
        for (boolean told : new boolean[]{false, true}) {
            Path db = dir.resolve("patterns-" + told);
            int window = 100, shortPass = 50;
            Map<String, String> hints = Map.of(OnlineSettings.HINT_ONLINE, "true", OnlineSettings.HINT_PATTERNS, db.toString(),
                    OnlineSettings.HINT_WINDOW, Integer.toString(window));
            InterceptorChain chain = new InterceptorChain(List.of(new OnlineProvider().create(hints)));
            OnlineStats stats = OnlineStats.global();
            long matched = stats.requestsMatched.get(), handed = stats.filesHandedOn.get(), givenUp = stats.passesGivenUp.get();
            try (Open o = new Open(chain, data, hints, told)) {
                o.strided(SEGMENTS, RANKS);
                assertEquals(window + 1, stats.requestsMatched.get() - matched, told + ": the long pass, to one past the window");
                assertEquals(1, stats.passesGivenUp.get() - givenUp, "told " + told);
                o.strided(shortPass, RANKS);
                o.strided(shortPass, RANKS);
                o.strided(shortPass, RANKS);
            }
            assertEquals(window + 1 + 2 * shortPass, stats.requestsMatched.get() - matched,
                    told + ": the second pass whole, the third until its start (all of it) repeats the second, no fourth");
            assertEquals(1, stats.filesHandedOn.get() - handed, "told " + told);
            List<Path> records = awaitRecords(db);
            assertEquals(1, records.size(), records.toString());
            assertEquals(shortPass, PassRecord.decode(Files.readAllBytes(records.get(0))).pass().requests(), told + ": the second pass");
        }
    }

    /**
     * A pass longer than the window ends at the first read past it: the rest of the open is matched no more (it is
     * only looked at for the reads starting over, which these never do).
     */
    @Test
    void aPassOverTheWindowEndsThereAndMatchesNoFurtherRead() throws Exception {
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

    /**
     * A pass that reads its first block again mid-pass (a header, re-read before the second half of the data): the
     * re-read ends the pass there, as the rule says, so each sweep is cut in two pieces, the header and the first
     * half, then the header and the second half. Each piece differs from the one before, so none repeats: nothing
     * is handed on (as before the rule, where the whole open was one pass, and one pass establishes nothing), every
     * read is matched (no probe fired: each piece starts off the previous piece's first pattern), and nothing fails,
     * either way.
     */
    @Test
    void aHeaderReadAgainMidPassCutsThePassInPiecesThatDoNotRepeat() throws Exception {
        Path data = dir.resolve("data.dat");
        Files.write(data, new byte[RANKS * SEGMENTS * BLOCK]);
        int header = 512, sweeps = 3;
        for (boolean told : new boolean[]{false, true}) {
            Path db = dir.resolve("patterns-" + told);
            Map<String, String> hints = Map.of(OnlineSettings.HINT_ONLINE, "true", OnlineSettings.HINT_PATTERNS, db.toString());
            InterceptorChain chain = new InterceptorChain(List.of(new OnlineProvider().create(hints)));
            OnlineStats stats = OnlineStats.global();
            long matched = stats.requestsMatched.get(), handed = stats.filesHandedOn.get(), passes = stats.passes.get();
            try (Open o = new Open(chain, data, hints, told)) {
                for (int sweep = 0; sweep < sweeps; sweep++) {
                    o.read(0, header);
                    o.strided(SEGMENTS / 2, RANKS);
                    o.read(0, header);
                    o.strided(SEGMENTS, RANKS, SEGMENTS / 2);
                }
            }
            assertEquals(2 * sweeps, stats.passes.get() - passes, told + ": each header read after the first ended a piece");
            assertEquals(sweeps * (SEGMENTS + 2), stats.requestsMatched.get() - matched, told + ": every read matched");
            assertEquals(0, stats.filesHandedOn.get() - handed, "told " + told);
            Thread.sleep(100);
            assertEquals(List.of(), records(db), told + ": pieces that differ establish nothing");
        }
    }

    /**
     * A header read again mid-pass once (the first sweep reads it twice, the later sweeps once): the first sweep is
     * cut in two pieces, then whole sweeps follow, the second of which repeats the first whole one and is handed on
     * at its end, when the third starts (the probe cannot hand on early here: the sweeps' first pattern is the data's,
     * and each sweep starts with the header, off it). The one-off re-read cost a pass, nothing else.
     */
    @Test
    void aHeaderReadAgainOnceCostsAPassAndTheWholeSweepsAreHandedOn() throws Exception {
        Path data = dir.resolve("data.dat");
        Files.write(data, new byte[RANKS * SEGMENTS * BLOCK]);
        int header = 512;
        for (boolean told : new boolean[]{false, true}) {
            Path db = dir.resolve("patterns-" + told);
            Map<String, String> hints = Map.of(OnlineSettings.HINT_ONLINE, "true", OnlineSettings.HINT_PATTERNS, db.toString());
            InterceptorChain chain = new InterceptorChain(List.of(new OnlineProvider().create(hints)));
            OnlineStats stats = OnlineStats.global();
            long matched = stats.requestsMatched.get(), handed = stats.filesHandedOn.get(), passes = stats.passes.get();
            try (Open o = new Open(chain, data, hints, told)) {
                o.read(0, header);
                o.strided(SEGMENTS / 2, RANKS);
                o.read(0, header);
                o.strided(SEGMENTS, RANKS, SEGMENTS / 2);
                for (int sweep = 1; sweep <= 2; sweep++) {
                    o.read(0, header);
                    o.strided(SEGMENTS, RANKS);
                }
                assertEquals(3, stats.passes.get() - passes, "told " + told + ": the two pieces and the first whole sweep ended");
                assertEquals(0, stats.filesHandedOn.get() - handed, "told " + told + ": the second whole sweep is judged at its end");
                o.read(0, header);
                assertEquals(4, stats.passes.get() - passes, "told " + told);
                assertEquals(1, stats.filesHandedOn.get() - handed, "told " + told + ": the third sweep's start ended the second, a repeat");
                o.strided(SEGMENTS, RANKS);
            }
            assertEquals(4, stats.passes.get() - passes, "told " + told + ": the close ends no pass after the hand-off");
            assertEquals((SEGMENTS + 2) + 2 * (SEGMENTS + 1), stats.requestsMatched.get() - matched,
                    "told " + told + ": the cut sweep and the next two whole; nothing of the third");
            List<Path> records = awaitRecords(db);
            assertEquals(1, records.size(), records.toString());
            PassRecord r = PassRecord.decode(Files.readAllBytes(records.get(0)));
            assertEquals(SEGMENTS + 1, r.pass().requests(), "told " + told + ": a whole sweep, the header and the data: " + r.pass());
            assertEquals(1, r.pass().patterns().size(), r.pass().toString());
            assertEquals((long) RANK * BLOCK, r.pass().patterns().get(0).geometry().start(), r.pass().toString());
        }
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

    /** One read-only open of rank {@link #RANK}, kept open over several passes; {@code told} as in {@link #pass}. */
    private static final class Open implements AutoCloseable {
        private final InterceptorChain chain;
        private final boolean told;
        private final StorageFile f;
        private final FileContext ctx;
        private final ByteBuffer buf = ByteBuffer.allocate(BLOCK);

        Open(InterceptorChain chain, Path data, Map<String, String> hints, boolean told) throws IOException {
            this.chain = chain;
            this.told = told;
            PosixDriver driver = new PosixDriver();
            this.f = driver.open(data.toUri(), OpenOptions.readOnly());
            this.ctx = new FileContext("data.dat", data.toUri(), FileContext.MODE_RDONLY, RANK, RANKS, APP, hints, driver, f);
            chain.opened(ctx);
        }

        /** Segments {@code from} to {@code segments - 1} of a strided pass: block {@code s * stride + RANK}, a read each. */
        void strided(int segments, int stride, int from) throws IOException {
            for (int s = from; s < segments; s++) read(((long) s * stride + RANK) * BLOCK, BLOCK);
        }

        /** A whole strided pass of {@code segments} blocks. */
        void strided(int segments, int stride) throws IOException {
            strided(segments, stride, 0);
        }

        void read(long off, int length) throws IOException {
            buf.clear().limit(length);
            if (told) {
                long t1 = System.nanoTime();
                int n = f.read(off, buf);
                assertEquals(length, n);
                chain.observed(ctx, IoOp.READ, Positioning.EXPLICIT_OFFSET, off, length, n, t1, System.nanoTime());
            } else {
                assertEquals(length, chain.execute(IoCall.data(ctx, IoOp.READ, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(off, length), buf)));
            }
        }

        @Override
        public void close() throws IOException {
            chain.closing(ctx);
            chain.closed(ctx);
            f.close();
        }
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
