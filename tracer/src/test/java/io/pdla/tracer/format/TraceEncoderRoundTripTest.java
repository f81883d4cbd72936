package io.pdla.tracer.format;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.access.TraceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Compression is lossless: whatever goes in comes out, times to the nanosecond. */
class TraceEncoderRoundTripTest {
    @TempDir
    Path tmp;

    private static final TraceHeader HEADER = new TraceHeader(TraceFormat.VERSION, 2, 4, 4242, 1_700_000_000_000_000_000L, 123456789L, 77L);

    private Path write(List<TraceRecord> records, String name) throws IOException {
        ByteArraySink sink = new ByteArraySink();
        sink.putBytes(HEADER.encode());
        TraceEncoder enc = new TraceEncoder(sink);
        enc.file(5, "/data/a");
        enc.file(6, "/data/b");
        int half = records.size() / 2;
        for (int i = 0; i < records.size(); i++) {
            TraceRecord r = records.get(i);
            enc.add(TraceFormat.kind(r.op(), r.positioning(), r.collective()), r.fileId(), r.offset(), r.length(), r.startNanos(), r.endNanos());
            if (i == half) enc.checkpoint(0);
        }
        enc.end(3);
        Path f = tmp.resolve(name);
        Files.write(f, sink.toByteArray());
        return f;
    }

    private static List<TraceRecord> readAll(Path f) throws IOException {
        List<TraceRecord> out = new ArrayList<>();
        try (TraceFileReader r = TraceFileReader.open(f)) {
            r.forEachRemaining(out::add);
            assertTrue(r.ended());
            assertEquals(3, r.droppedRequests());
        }
        return out;
    }

    @Test
    void randomMixturesComeBackExactly() throws IOException {
        Random rnd = new Random(20261122);
        IoOp[] ops = IoOp.values();
        Positioning[] pos = Positioning.values();
        for (int trial = 0; trial < 20; trial++) {
            List<TraceRecord> in = new ArrayList<>();
            long t = rnd.nextInt(1000);
            while (in.size() < 3000) {
                IoOp op = ops[rnd.nextInt(ops.length)];
                Positioning p = pos[rnd.nextInt(pos.length)];
                boolean coll = rnd.nextBoolean();
                int file = 5 + rnd.nextInt(2);
                long length = rnd.nextInt(4) == 0 ? rnd.nextInt(100_000) : 4096;
                long offset = rnd.nextInt(1 << 20) * 16L;
                long stride = rnd.nextInt(3) == 0 ? -length : length * rnd.nextInt(5);
                int n = 1 + rnd.nextInt(rnd.nextBoolean() ? 3 : 200);
                int timing = rnd.nextInt(5);
                int group = 1 + rnd.nextInt(20);
                long duration = rnd.nextInt(50_000);
                long step = duration + rnd.nextInt(1000);
                for (int i = 0; i < n; i++) {
                    long o = offset + i * stride;
                    if (o < 0) break;
                    long start, end;
                    switch (timing) {
                        case 0 -> { start = t; end = t + duration; }                 // extents of one call
                        case 1 -> { start = t + i * step; end = start + duration; }  // uniform
                        case 2 -> { start = t - rnd.nextInt(500); end = start + rnd.nextInt(1 << 30); } // overlapping threads
                        case 3 -> { start = t + rnd.nextInt(10_000); end = start + rnd.nextInt(100_000); }
                        default -> {                                                 // several multi-extent calls
                            if (i % group == 0) t += rnd.nextInt(3000) + duration;
                            start = t - duration;
                            end = t;
                        }
                    }
                    in.add(new TraceRecord(2, file, op, p, coll, o, length, start, end));
                    if (timing != 0 && timing != 4) t = end;
                }
                t += rnd.nextInt(5000);
            }
            Path f = write(in, "t" + trial);
            assertEquals(in, readAll(f), "trial " + trial);
        }
    }

    @Test
    void runsExpandToTheSameRecords() throws IOException {
        Random rnd = new Random(7);
        List<TraceRecord> in = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < 5000; i++) {
            long off = (i / 100) * 1_000_000L + (i % 100) * 8192L;
            t += 1 + rnd.nextInt(3000);
            in.add(new TraceRecord(2, 5, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, false, off, 4096, t, t + rnd.nextInt(900)));
        }
        Path f = write(in, "runs");
        List<TraceRecord> out = new ArrayList<>();
        int runs = 0;
        try (TraceFileReader r = TraceFileReader.open(f)) {
            for (TraceRun run = r.nextRun(); run != null; run = r.nextRun()) {
                runs++;
                assertEquals(8192, run.count() > 1 ? run.stride() : 8192);
                for (int i = 0; i < run.count(); i++) out.add(run.record(i));
            }
        }
        assertEquals(in, out);
        assertEquals(51, runs, "50 blocks of 100, one cut by the checkpoint");
    }

    @Test
    void multiExtentCallsContinuingOneStrideShareTheirTimesPerCall() throws IOException {
        List<TraceRecord> in = new ArrayList<>();
        Random rnd = new Random(3);
        long t = 0;
        for (int call = 0; call < 100; call++) {
            t += 1000 + rnd.nextInt(5000);
            long end = t + 2000 + rnd.nextInt(5000);
            for (int row = 0; row < 16; row++) {
                in.add(new TraceRecord(2, 5, IoOp.READ, Positioning.INDIVIDUAL_POINTER, true, (call * 16L + row) * 65536, 256, t, end));
            }
            t = end;
        }
        Path f = write(in, "grouped");
        assertEquals(in, readAll(f));
        // one run (cut in two by the test's checkpoint); about one byte per row, not two varints per row
        assertTrue(Files.size(f) < TraceFormat.HEADER_BYTES + 100 * 8 + 60, "size " + Files.size(f));
    }

    @Test
    void uniformStridedRunIsOneEntryOfAFewBytes() throws IOException {
        List<TraceRecord> in = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            long start = 1000 + i * 2500L;
            in.add(new TraceRecord(2, 5, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, true, 4096L * 4 * i + 8192, 4096, start, start + 2000));
        }
        Path f = write(in, "uniform");
        try (TraceFileReader r = TraceFileReader.open(f)) {
            List<TraceRecord> out = new ArrayList<>();
            r.forEachRemaining(out::add);
            assertEquals(in, out);
            // 2 file declarations, the run cut by the checkpoint into 2 runs, the checkpoint and the end
            assertEquals(6, r.entriesRead());
        }
        assertTrue(Files.size(f) < TraceFormat.HEADER_BYTES + 120, "size " + Files.size(f));
    }

    @Test
    void timeShiftAlignsRanks() throws IOException {
        List<TraceRecord> in = List.of(new TraceRecord(2, 5, IoOp.READ, Positioning.SHARED_POINTER, false, 10, 20, 100, 150));
        Path f = write(in, "shift");
        try (TraceFileReader r = TraceFileReader.open(f, 1_000)) {
            TraceRecord got = r.next();
            assertEquals(1_100, got.startNanos());
            assertEquals(1_150, got.endNanos());
            assertEquals(4242, r.header().pid());
        }
    }

    @Test
    void rankClockUsesNanoTimeWithinOneJvmAndWallClockAcross() {
        RankClock a = new RankClock(1_000_000, 50, 1);
        RankClock b = new RankClock(1_000_900, 80, 1);
        assertEquals(30, b.shiftNanos(List.of(a, b)), "same JVM: nanoTime difference");
        RankClock c = new RankClock(1_000_900, 80, 2);
        assertEquals(900, c.shiftNanos(List.of(a, c)), "different JVMs: wall clock difference");
        assertEquals(0, a.shiftNanos(List.of(a, c)));
    }
}
