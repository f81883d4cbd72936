package io.pdla.tracer.runtime;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.IoCall;
import io.pdla.darshan.Counter;
import io.pdla.tracer.counters.TracedRecord;
import io.pdla.tracer.counters.FileCounters;
import io.pdla.tracer.format.ByteArraySink;
import io.pdla.tracer.format.TraceEncoder;
import io.pdla.tracer.format.TraceFormat;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The batched path (calls queued in {@link PendingCalls}, drained as single calls and runs into
 * {@link FileCounters#dataRun} and the encoder) gives the same counters, both modules, and the same trace
 * bytes as counting and encoding each call at once, as the tracer did before batching, on random call
 * sequences: patterns with every kind of stride (forward, backward, zero, overlapping, from offset 0 with
 * one-byte requests), short reads, multi-extent calls, metadata calls, two files, unaligned offsets, and a
 * small ring so that runs are cut where it wraps and where it fills; independent calls of one extent queued as
 * calls or by their parts ({@link PendingCalls#offerOne}, the shim's observed calls) at random.
 */
class BatchedCountingPropertyTest {
    private static final ByteBuffer ANY = ByteBuffer.allocate(1 << 20);

    private record Call(TracedFile file, IoCall call, long moved, long t1, long t2) {
    }

    @Property(tries = 400)
    void batchedCountersAndTraceEqualCallByCall(@ForAll long seed, @ForAll @IntRange(min = 1, max = 6) int ringLog2) {
        Random rnd = new Random(seed);
        List<Call> calls = calls(rnd, 1 + rnd.nextInt(600));
        long alignment = rnd.nextInt(4) == 0 ? 1000 : 4096; // also a block size that is not a power of two

        // call by call, as RankTracer.record counted and encoded before batching
        TracedFile[] oneByOne = files(alignment);
        ByteArraySink expectedBytes = new ByteArraySink();
        TraceEncoder expected = new TraceEncoder(expectedBytes);
        declare(expected, oneByOne);
        for (Call c : calls) {
            TracedFile f = oneByOne[c.file.fileId() - 1];
            IoCall call = c.call;
            int kind = TraceFormat.kind(call.op(), call.positioning(), call.collective());
            if (call.op().movesData()) {
                f.counters().data(call.op(), call.collective(), call.extents(), c.moved, c.t1, c.t2);
                for (int i = 0; i < call.extents().size(); i++) {
                    expected.add(kind, f.fileId(), call.extents().offset(i), call.extents().length(i), c.t1, c.t2);
                }
            } else {
                f.counters().meta(call.op(), c.t1, c.t2);
                expected.add(kind, f.fileId(), Math.max(0, call.argument()), 0, c.t1, c.t2);
            }
        }
        expected.end(0);

        // batched, through the ring
        TracedFile[] batched = files(alignment);
        ByteArraySink actualBytes = new ByteArraySink();
        TraceEncoder actual = new TraceEncoder(actualBytes);
        declare(actual, batched);
        PendingCalls ring = new PendingCalls(1 << ringLog2);
        int[] runs = {0};
        PendingCalls.Consumer consumer = new PendingCalls.Consumer() {
            @Override
            public void call(TracedFile file, IoOp op, Positioning positioning, boolean collective, ExtentList extents,
                             long offset, long length, long argument, long moved, long t1, long t2) {
                TracedFile f = batched[file.fileId() - 1];
                int kind = TraceFormat.kind(op, positioning, collective);
                if (!op.movesData()) {
                    f.counters().meta(op, t1, t2);
                    actual.add(kind, f.fileId(), Math.max(0, argument), 0, t1, t2);
                } else if (extents == null) {
                    f.counters().data(op, collective, offset, length, moved, t1, t2);
                    actual.add(kind, f.fileId(), offset, length, t1, t2);
                } else {
                    f.counters().data(op, collective, extents, moved, t1, t2);
                    for (int i = 0; i < extents.size(); i++) actual.add(kind, f.fileId(), extents.offset(i), extents.length(i), t1, t2);
                }
            }

            @Override
            public void run(TracedFile file, IoOp op, Positioning positioning, boolean collective, long first, long stride,
                            long length, int n, long[] starts, long[] ends, int from) {
                runs[0]++;
                TracedFile f = batched[file.fileId() - 1];
                f.counters().dataRun(op, collective, first, stride, length, n, starts, ends, from);
                actual.addRun(TraceFormat.kind(op, positioning, collective), f.fileId(), first, stride, length, n, starts, ends, from);
            }
        };
        Random byParts = new Random(seed ^ 0x5EED);
        for (Call c : calls) {
            // an independent call of one extent also comes by its parts (the shim's straight calls, observed)
            boolean parts = c.call.op().movesData() && !c.call.collective() && c.call.extents().size() == 1 && byParts.nextBoolean();
            if (!offer(ring, c, parts)) {
                ring.drain(consumer);
                if (!offer(ring, c, parts)) consumer.call(c.file, c.call.op(), c.call.positioning(),
                        c.call.collective(), c.call.extents(), 0, 0, c.call.argument(), c.moved, c.t1, c.t2);
            }
        }
        ring.drain(consumer);
        assertTrue(ring.isEmpty());
        actual.end(0);

        for (int i = 0; i < oneByOne.length; i++) {
            assertSameCounters(oneByOne[i].counters().posix(), batched[i].counters().posix(), "file " + i + ", seed " + seed);
            assertSameCounters(oneByOne[i].counters().mpiio(), batched[i].counters().mpiio(), "file " + i + ", seed " + seed);
        }
        assertArrayEquals(expectedBytes.toByteArray(), actualBytes.toByteArray(), "trace bytes, seed " + seed);
        if (ringLog2 >= 3 && calls.size() > 100) assertTrue(runs[0] > 0, "the generator makes runs; seed " + seed);
    }

    private static boolean offer(PendingCalls ring, Call c, boolean byParts) {
        if (!byParts) return ring.offer(c.file, c.call, c.moved, c.t1, c.t2);
        ExtentList e = c.call.extents();
        return ring.offerOne(c.file, c.call.op(), c.call.positioning(), e.offset(0), e.length(0), c.moved, c.t1, c.t2);
    }

    /** Runs longer than a trace entry holds (65,536 requests) are cut where adding requests one by one cuts them. */
    @Test
    void bulkRunsCrossTheLongestEntryAsSingleRequestsDo() {
        int n = TraceFormat.MAX_RUN * 2 + 1234;
        long[] starts = new long[n], ends = new long[n];
        Random rnd = new Random(7);
        long now = 0;
        for (int k = 0; k < n; k++) {
            starts[k] = now += rnd.nextInt(40);
            ends[k] = now += 1 + rnd.nextInt(40);
        }
        ByteArraySink one = new ByteArraySink(), bulk = new ByteArraySink();
        TraceEncoder a = new TraceEncoder(one), b = new TraceEncoder(bulk);
        a.file(1, "/a");
        b.file(1, "/a");
        for (int k = 0; k < n; k++) a.add(5, 1, 4096L * 3 * k, 4096, starts[k], ends[k]);
        for (int from = 0; from < n; from += 3001) b.addRun(5, 1, 4096L * 3 * from, 4096L * 3, 4096, Math.min(3001, n - from), starts, ends, from);
        a.end(0);
        b.end(0);
        assertEquals(a.entries(), b.entries());
        assertEquals(n, b.requests());
        assertArrayEquals(one.toByteArray(), bulk.toByteArray());
    }

    /** Names the first counter that differs; then the whole records (ranks, names, float counters) must be equal. */
    private static void assertSameCounters(TracedRecord want, TracedRecord got, String what) {
        for (Counter c : want.module().counters()) assertEquals(want.get(c), got.get(c), c + ", " + what);
        for (Counter c : want.module().fcounters()) assertEquals(want.getF(c), got.getF(c), c + ", " + what);
        assertEquals(want, got, what);
    }

    private static TracedFile[] files(long alignment) {
        return new TracedFile[]{
                new TracedFile(null, 1, "/a", new FileCounters(0, 11, "/a", "/", "ext4", alignment)),
                new TracedFile(null, 2, "/b", new FileCounters(0, 12, "/b", "/", "ext4", alignment))};
    }

    private static void declare(TraceEncoder e, TracedFile[] files) {
        for (TracedFile f : files) e.file(f.fileId(), f.path());
    }

    /** Random calls, mostly stretches of one pattern each (as IOR makes), with times that only move forward. */
    private static List<Call> calls(Random rnd, int count) {
        TracedFile[] ids = files(4096); // only the ids matter: the test maps them to its own files
        List<Call> out = new ArrayList<>();
        long now = 1 + rnd.nextInt(1000);
        IoOp[] metas = {IoOp.SEEK, IoOp.SYNC, IoOp.SET_VIEW, IoOp.SET_SIZE};
        while (out.size() < count) {
            TracedFile f = ids[rnd.nextInt(2)];
            int shape = rnd.nextInt(10);
            if (shape == 0) {
                IoOp op = metas[rnd.nextInt(metas.length)];
                long t1 = now += rnd.nextInt(50);
                out.add(new Call(f, IoCall.meta(null, op, rnd.nextBoolean(), rnd.nextInt(3) == 0 ? -1 : rnd.nextInt(1 << 20)), 0, t1, now += rnd.nextInt(50)));
                continue;
            }
            IoOp op = rnd.nextBoolean() ? IoOp.READ : IoOp.WRITE;
            Positioning pos = rnd.nextInt(4) == 0 ? Positioning.INDIVIDUAL_POINTER : Positioning.EXPLICIT_OFFSET;
            boolean coll = rnd.nextInt(5) == 0;
            if (shape == 1) {
                ExtentList.Builder b = ExtentList.builder();
                int n = 2 + rnd.nextInt(5);
                long off = rnd.nextInt(1 << 16);
                for (int i = 0; i < n; i++) b.add(off += rnd.nextInt(4096), 1 + rnd.nextInt(512));
                ExtentList e = b.build();
                long moved = rnd.nextInt(3) == 0 ? rnd.nextLong(e.totalBytes() + 1) : e.totalBytes();
                long t1 = now += rnd.nextInt(50);
                out.add(new Call(f, IoCall.data(null, op, pos, coll, e, ANY), moved, t1, now += rnd.nextInt(50)));
                continue;
            }
            long length = switch (rnd.nextInt(5)) {
                case 0 -> 1;
                case 1 -> 1 + rnd.nextInt(100);
                default -> 4096;
            };
            long stride = switch (rnd.nextInt(7)) {
                case 0 -> 0;
                case 1 -> -length;
                case 2 -> length / 2;
                case 3 -> length + rnd.nextInt(8192);
                default -> length;
            };
            long first = rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(1 << 20) + (rnd.nextBoolean() ? 0 : rnd.nextInt(7));
            int n = 1 + rnd.nextInt(40);
            boolean sameTimes = rnd.nextInt(4) == 0;
            long dur = 1 + rnd.nextInt(30);
            for (int k = 0; k < n; k++) {
                long off = first + k * stride;
                if (off < 0) break;
                long moved = rnd.nextInt(20) == 0 ? rnd.nextLong(length + 1) : length;
                long t1 = now += sameTimes ? 1 : rnd.nextInt(50);
                long t2 = now += sameTimes ? dur : rnd.nextInt(50);
                out.add(new Call(f, IoCall.data(null, op, pos, coll, ExtentList.of(off, length), ANY), moved, t1, t2));
            }
        }
        return out;
    }
}
