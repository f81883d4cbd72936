package io.pdla.intercept;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import io.pdla.storage.posix.PosixDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InterceptorChainTest {
    @TempDir
    Path dir;

    private FileContext open(String name) throws IOException {
        PosixDriver driver = new PosixDriver();
        Path p = dir.resolve(name);
        StorageFile f = driver.open(p.toUri(), OpenOptions.createReadWrite());
        return new FileContext(name, p.toUri(), 0, 0, 1, new AppIdentity("Test", 1), Map.of(), driver, f);
    }

    /** Records "before NAME", "after NAME" around the rest of the chain. */
    private static IoInterceptor recording(String name, List<String> events) {
        return new IoInterceptor() {
            @Override
            public void opened(FileContext file) {
                events.add("opened " + name);
            }

            @Override
            public long intercept(IoCall call, Chain next) throws IOException {
                events.add("before " + name + " " + call.op());
                long n = next.proceed(call);
                events.add("after " + name + " " + call.op());
                return n;
            }

            @Override
            public void closing(FileContext file) {
                events.add("closing " + name);
            }
        };
    }

    @Test
    void interceptorsWrapEachOtherInOrderAroundTheDriver() throws IOException {
        List<String> events = new ArrayList<>();
        InterceptorChain chain = new InterceptorChain(List.of(recording("tracer", events), recording("redirect", events)));
        FileContext ctx = open("wrap");
        chain.opened(ctx);
        byte[] data = "hello".getBytes(StandardCharsets.US_ASCII);
        long n = chain.execute(IoCall.data(ctx, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(3, 5), ByteBuffer.wrap(data)));
        chain.closing(ctx);
        assertEquals(5, n);
        assertEquals(8, ctx.file().size(), "the write reached the driver at offset 3");
        assertEquals(List.of("opened tracer", "opened redirect",
                "before tracer WRITE", "before redirect WRITE", "after redirect WRITE", "after tracer WRITE",
                "closing redirect", "closing tracer"), events);
        ctx.file().close();
    }

    /** Watches every open, and {@code alsoWhen} those its opened hook marks: a pass-through it had nothing to do for. */
    private static IoInterceptor watcher(boolean always, Key<Boolean> idle) {
        return new IoInterceptor() {
            @Override
            public void opened(FileContext file) {
                if (!always) file.put(idle, file.name().startsWith("idle"));
            }

            @Override
            public boolean observesOnly() {
                return always;
            }

            @Override
            public boolean observesOnly(FileContext file) {
                return always || Boolean.TRUE.equals(file.get(idle));
            }
        };
    }

    @Test
    void aChainOnlyWatchesAnOpenWhenEveryInterceptorSaysSoForItOnceOpened() throws IOException {
        Key<Boolean> idle = Key.of("test-idle");
        InterceptorChain forIdle = new InterceptorChain(List.of(watcher(true, idle), watcher(false, idle)));
        InterceptorChain forBusy = new InterceptorChain(List.of(watcher(true, idle), watcher(false, idle)));
        assertFalse(forIdle.observersOnly(), "before its open, the per-open answer is not known: only the constant one counts");
        FileContext idleFile = open("idle-file"), busyFile = open("busy-file");
        forIdle.opened(idleFile);
        forBusy.opened(busyFile);
        assertTrue(forIdle.observersOnly(), "every interceptor only watches this open");
        assertFalse(forBusy.observersOnly(), "one interceptor acts on this open");
        InterceptorChain plain = new InterceptorChain(List.of(recording("tracer", new ArrayList<>())));
        FileContext other = open("idle-other");
        plain.opened(other);
        assertFalse(plain.observersOnly(), "an interceptor that does not say it watches is not taken to");
        InterceptorChain none = InterceptorChain.empty();
        FileContext bare = open("idle-none");
        none.opened(bare);
        assertFalse(none.observersOnly(), "an empty chain has no one to tell: the shim's bare path");
        for (FileContext c : List.of(idleFile, busyFile, other, bare)) c.file().close();
    }

    /**
     * An interceptor whose per-open answer changes during a call it was told of (redirect, once a replica published
     * during the open serves it) announces it; the chain asks again after that call, through the straight path's
     * {@code observed} or through the chain, and not before: a call in progress keeps the way it took.
     */
    @Test
    void aChangedAnswerAnnouncedDuringACallTakesEffectFromTheNextCall() throws IOException {
        Key<Boolean> acting = Key.of("test-acting");
        List<String> intercepted = new ArrayList<>();
        IoInterceptor switching = new IoInterceptor() {
            @Override
            public boolean observesOnly(FileContext file) {
                return !Boolean.TRUE.equals(file.get(acting));
            }

            @Override
            public void observed(FileContext file, IoOp op, Positioning positioning, long offset, long length, long moved, long s, long e) {
                if (offset == 4096) {   // the call that changes its mind
                    file.put(acting, true);
                    file.answersChanged();
                }
            }

            @Override
            public long intercept(IoCall call, Chain next) throws IOException {
                intercepted.add("at " + call.extents().offset(0));
                return next.proceed(call);
            }
        };
        InterceptorChain chain = new InterceptorChain(List.of(switching));
        FileContext f = open("switching");
        chain.opened(f);
        assertTrue(chain.observersOnly(), "it only watches at first");
        chain.observed(f, IoOp.READ, Positioning.EXPLICIT_OFFSET, 0, 4096, 4096, 1, 2);
        assertTrue(chain.observersOnly(), "nothing announced");
        chain.observed(f, IoOp.READ, Positioning.EXPLICIT_OFFSET, 4096, 4096, 4096, 3, 4);
        assertFalse(chain.observersOnly(), "asked again after the call that announced the change");
        chain.execute(IoCall.data(f, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(8192, 4), ByteBuffer.wrap(new byte[4])));
        assertEquals(List.of("at 8192"), intercepted, "the next call goes through it");

        // announced during a call through the chain: the answers are asked again after it
        f.put(acting, false);
        f.answersChanged();
        chain.execute(IoCall.data(f, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(0, 4), ByteBuffer.wrap(new byte[4])));
        assertTrue(chain.observersOnly(), "the change announced before this call took effect after it");
        f.file().close();
    }

    @Test
    void anInterceptorThatDoesNotProceedHandlesTheCallItself() throws IOException {
        IoInterceptor serveFromElsewhere = new IoInterceptor() {
            @Override
            public long intercept(IoCall call, Chain next) {
                call.buffer().put(new byte[]{42, 42});
                return 2;
            }
        };
        FileContext ctx = open("handled");
        InterceptorChain chain = new InterceptorChain(List.of(serveFromElsewhere));
        ByteBuffer buf = ByteBuffer.allocate(2);
        assertEquals(2, chain.execute(IoCall.data(ctx, IoOp.READ, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(0, 2), buf)));
        assertEquals(42, buf.get(0));
        assertEquals(0, ctx.file().size(), "the driver was never called");
        ctx.file().close();
    }

    @Test
    void proceedingTwiceIsReportedWithTheInterceptorsName() throws IOException {
        IoInterceptor greedy = new IoInterceptor() {
            @Override
            public long intercept(IoCall call, Chain next) throws IOException {
                next.proceed(call);
                return next.proceed(call);
            }
        };
        FileContext ctx = open("twice");
        InterceptorChain chain = new InterceptorChain(List.of(greedy));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> chain.execute(IoCall.meta(ctx, IoOp.SYNC, false, 0)));
        assertTrue(e.getMessage().contains("proceeded twice"), e.getMessage());
        assertTrue(e.getMessage().contains(getClass().getName()), e.getMessage());
        ctx.file().close();
    }

    @Test
    void closeableStateInTheFileStoreIsClosedWithTheFile() throws IOException {
        FileContext ctx = open("store");
        Key<AutoCloseable> key = Key.of("resource");
        boolean[] closed = {false};
        ctx.put(key, () -> closed[0] = true);
        InterceptorChain.empty().closing(ctx);
        assertTrue(closed[0]);
        ctx.file().close();
    }

    @Test
    void unknownInterceptorNamesAreRejectedWithTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Interceptors().configured(Map.of(Interceptors.HINT, "nosuch")));
        assertTrue(e.getMessage().contains("nosuch"), e.getMessage());
        assertTrue(e.getMessage().contains(Interceptors.HINT), e.getMessage());
    }

    @Test
    void noneMeansNoInterceptors() {
        assertTrue(new Interceptors().configured(Map.of(Interceptors.HINT, "none")).isEmpty());
    }

    /**
     * The close work of a chain: every interceptor is told even after one threw (a RuntimeException included), and a
     * failure on the application's data path is the one reported, whichever interceptor failed first.
     */
    @Test
    void closeAgreedTellsEveryInterceptorAndReportsTheDataPathFailure() throws IOException {
        List<String> told = new ArrayList<>();
        IoInterceptor outer = new IoInterceptor() {
            @Override
            public void closeAgreed(FileContext file, boolean anyRank) {
                told.add("outer");
                throw new IllegalStateException("outer broke");
            }
        };
        IoInterceptor middle = new IoInterceptor() {
            @Override
            public void closeAgreed(FileContext file, boolean anyRank) throws IOException {
                told.add("middle");
                throw new DataPathException("delegate 1 did not answer");
            }
        };
        IoInterceptor inner = new IoInterceptor() {
            @Override
            public void closeAgreed(FileContext file, boolean anyRank) throws IOException {
                told.add("inner");
                throw new IOException("inner broke first");
            }
        };
        FileContext f = open("close.dat");
        IOException e = assertThrows(IOException.class, () -> new InterceptorChain(List.of(outer, middle, inner)).closeAgreed(f, true));
        assertEquals(List.of("inner", "middle", "outer"), told, "innermost first, every one told");
        assertTrue(e instanceof DataPathException, "the data-path failure is reported, not the first one: " + e);
        assertEquals(2, e.getSuppressed().length, "the others ride along: " + List.of(e.getSuppressed()));
        f.file().close();
    }

    /** A chain wants rank 0's share at open when any interceptor does; one that fails to answer counts as wanting it. */
    @Test
    void aChainWantsRankZerosShareWhenAnyInterceptorDoesOrCannotTell() throws IOException {
        IoInterceptor wants = new IoInterceptor() {
            @Override
            public boolean wantsRankZeroAtOpen(FileContext file) {
                return true;
            }
        };
        IoInterceptor broken = new IoInterceptor() {
            @Override
            public boolean wantsRankZeroAtOpen(FileContext file) {
                throw new IllegalStateException("cannot tell");
            }
        };
        IoInterceptor quiet = new IoInterceptor() { };
        FileContext f = open("wish.dat");
        assertFalse(new InterceptorChain(List.of(quiet, quiet)).wantsRankZeroAtOpen(f), "nobody asks by default");
        assertTrue(new InterceptorChain(List.of(quiet, wants)).wantsRankZeroAtOpen(f));
        assertTrue(new InterceptorChain(List.of(broken, quiet)).wantsRankZeroAtOpen(f), "a failing answer costs a meeting, never a step");
        assertTrue(f.rankZeroWantedAtOpen(), "until the opener gathered the ranks' answers, every rank shares");
        f.ranksWantedRankZero(false);
        assertFalse(f.rankZeroWantedAtOpen());
        f.ranksWantedRankZero(true);
        assertTrue(f.rankZeroWantedAtOpen());
        f.file().close();
    }

    /** An interceptor that ignores an open is left out of its data calls (intercept, observed), not out of its other hooks. */
    @Test
    void anInterceptorThatIgnoresAnOpenIsLeftOutOfItsDataCallsOnly() throws IOException {
        List<String> events = new ArrayList<>();
        IoInterceptor ignoring = new IoInterceptor() {
            @Override
            public boolean ignores(FileContext file) {
                return file.name().startsWith("quiet");
            }

            @Override
            public long intercept(IoCall call, Chain next) throws IOException {
                events.add("intercept " + call.file().name());
                return next.proceed(call);
            }

            @Override
            public boolean observesOnly() {
                return true;
            }

            @Override
            public void observed(FileContext file, IoOp op, Positioning positioning, long offset, long length, long moved, long s, long e) {
                events.add("observed " + file.name());
            }

            @Override
            public void closing(FileContext file) {
                events.add("closing " + file.name());
            }
        };
        IoInterceptor watcher = new IoInterceptor() {
            @Override
            public boolean observesOnly() {
                return true;
            }

            @Override
            public void observed(FileContext file, IoOp op, Positioning positioning, long offset, long length, long moved, long s, long e) {
                events.add("watcher observed " + file.name());
            }
        };
        for (String name : new String[]{"quiet.dat", "busy.dat"}) {
            FileContext f = open(name);
            InterceptorChain chain = new InterceptorChain(List.of(ignoring, watcher));
            chain.opened(f);
            assertTrue(chain.observersOnly());
            ByteBuffer b = ByteBuffer.wrap("abcd".getBytes(StandardCharsets.US_ASCII));
            assertEquals(4, chain.execute(IoCall.data(f, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(0, 4), b)));
            chain.observed(f, IoOp.READ, Positioning.EXPLICIT_OFFSET, 0, 4, 4, 0, 1);
            chain.closing(f);
            f.file().close();
        }
        assertEquals(List.of("watcher observed quiet.dat", "closing quiet.dat",
                "intercept busy.dat", "observed busy.dat", "watcher observed busy.dat", "closing busy.dat"), events);
    }
}
