package io.pdla.tracer.format;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.access.TraceRecord;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A version-1 trace kept byte for byte ({@code golden/rank-1-v1.pdlt}): the encoder must keep producing it
 * and every later reader must keep reading it (a new format version adds its own golden file).
 * Regenerate only when deliberately changing version 1 (never after release):
 * {@code java -cp <test classpath> io.pdla.tracer.format.GoldenTraceTest <file>}.
 */
class GoldenTraceTest {
    static final TraceHeader HEADER = new TraceHeader(1, 1, 2, 31337, 1_800_000_000_123_456_789L, 987_654_321L, 0x5EED);

    /** Every operation and timing mode once: an IOR-like uniform run, a grouped view read, explicit timings. */
    static List<TraceRecord> records() {
        List<TraceRecord> r = new ArrayList<>();
        r.add(new TraceRecord(1, 7, IoOp.OPEN, Positioning.NONE, true, 0, 0, 10, 10));
        for (int i = 0; i < 8; i++) r.add(new TraceRecord(1, 7, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, false, 4096L * (2 * i + 1), 4096, 100 + 50L * i, 130 + 50L * i));
        r.add(new TraceRecord(1, 7, IoOp.SYNC, Positioning.NONE, true, 0, 0, 600, 650));
        r.add(new TraceRecord(1, 7, IoOp.SET_VIEW, Positioning.NONE, true, 512, 0, 700, 705));
        for (int c = 0; c < 3; c++) {
            for (int k = 0; k < 4; k++) r.add(new TraceRecord(1, 7, IoOp.READ, Positioning.INDIVIDUAL_POINTER, true, 512 + (c * 4L + k) * 1024, 128, 800 + 100L * c, 870 + 100L * c));
        }
        long[] starts = {2000, 2100, 2101, 2500};
        long[] ends = {2050, 2300, 2102, 2999};
        for (int i = 0; i < 4; i++) r.add(new TraceRecord(1, 8, IoOp.READ, Positioning.SHARED_POINTER, false, 10 + 3L * i, 3, starts[i], ends[i]));
        r.add(new TraceRecord(1, 7, IoOp.SEEK, Positioning.NONE, false, 123, 0, 3000, 3001));
        r.add(new TraceRecord(1, 7, IoOp.SET_SIZE, Positioning.NONE, false, 99999, 0, 3100, 3200));
        r.add(new TraceRecord(1, 7, IoOp.CLOSE, Positioning.NONE, false, 0, 0, 3300, 3300));
        return r;
    }

    static byte[] encode() {
        ByteArraySink sink = new ByteArraySink();
        sink.putBytes(HEADER.encode());
        TraceEncoder enc = new TraceEncoder(sink);
        enc.file(7, "/scratch/ior.dat");
        enc.file(8, "/scratch/log");
        List<TraceRecord> rs = records();
        for (int i = 0; i < rs.size(); i++) {
            TraceRecord t = rs.get(i);
            enc.add(TraceFormat.kind(t.op(), t.positioning(), t.collective()), t.fileId(), t.offset(), t.length(), t.startNanos(), t.endNanos());
            if (i == 10) enc.checkpoint(0);
        }
        enc.end(2);
        return sink.toByteArray();
    }

    private static byte[] golden() throws IOException {
        try (InputStream in = GoldenTraceTest.class.getResourceAsStream("/golden/rank-1-v1.pdlt")) {
            assertNotNull(in, "golden trace missing from test resources");
            return in.readAllBytes();
        }
    }

    @Test
    void encoderStillWritesVersionOneByteForByte() throws IOException {
        assertArrayEquals(golden(), encode());
    }

    @Test
    void readerStillReadsVersionOne() throws IOException {
        Path f = Files.createTempFile("golden", ".pdlt");
        try {
            Files.write(f, golden());
            List<TraceRecord> got = new ArrayList<>();
            try (TraceFileReader r = TraceFileReader.open(f)) {
                assertEquals(HEADER, r.header());
                r.forEachRemaining(got::add);
                assertEquals(2, r.droppedRequests());
                assertEquals(java.util.Map.of(7, "/scratch/ior.dat", 8, "/scratch/log"), r.files());
            }
            assertEquals(records(), got);
        } finally {
            Files.delete(f);
        }
    }

    public static void main(String[] args) throws IOException {
        Files.write(Path.of(args[0]), encode());
    }
}
