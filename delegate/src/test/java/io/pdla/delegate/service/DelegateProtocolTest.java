package io.pdla.delegate.service;

import io.pdla.access.ExtentList;
import io.pdla.delegate.service.DelegateProtocol.Op;
import io.pdla.delegate.service.DelegateProtocol.Request;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DelegateProtocolTest {
    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @Test
    void aWriteGatheredFromRunsOfTheCallersBufferArrivesInRunOrder() throws IOException {
        byte[] call = new byte[100];
        for (int i = 0; i < call.length; i++) call[i] = (byte) i;
        ByteBuffer src = ByteBuffer.wrap(call, 10, 90).slice();   // the call's buffer starts at byte 10 of the array
        List<long[]> runs = List.of(new long[]{5, 3}, new long[]{40, 2});
        byte[] msg = DelegateProtocol.write("file:///x", ExtentList.builder().add(0, 3).add(4096, 2).build(),
                DelegateProtocol.Payload.gather(src, runs, 5));
        Request r = DelegateProtocol.decode(msg);
        assertEquals(Op.WRITE, r.op());
        assertEquals("file:///x", r.uri());
        assertArrayEquals(new byte[]{15, 16, 17, 50, 51}, bytes(r.data()));
        assertEquals(2, r.extents().size());
        assertTrue(r.data().isReadOnly());
    }

    @Test
    void everyFieldSurvivesTheRoundTripAndInvalidationKeepsTheData() throws IOException {
        byte[] open = DelegateProtocol.open("simpfs:///d/é.dat", true, 1 << 20, 64 << 20, Map.of("a", "1", "clé", "välue"), 42, 3);
        Request o = DelegateProtocol.decode(open);
        assertEquals(Op.OPEN, o.op());
        assertEquals("simpfs:///d/é.dat", o.uri());
        assertEquals(1 << 20, o.pageSize());
        assertEquals(64 << 20, o.cacheBytes());
        assertEquals(Map.of("a", "1", "clé", "välue"), o.hints());
        assertEquals(42, o.group());
        assertEquals(3, o.groupSize());
        assertTrue(o.writable());

        byte[] data = new byte[5000];
        new Random(7).nextBytes(data);
        byte[] w = DelegateProtocol.write("file:///y", ExtentList.of(123, 5000), data);
        Request again = DelegateProtocol.decode(DelegateProtocol.encode(DelegateProtocol.decode(w).invalidating(ExtentList.of(0, 4096))));
        assertArrayEquals(data, bytes(again.data()));
        assertEquals(ExtentList.of(0, 4096).totalBytes(), again.invalidate().totalBytes());
        assertEquals(123, again.extents().offset(0));
    }

    @Test
    void aJoiningRequestCarriesTheOpenAndTheSendersSyncCount() throws IOException {
        DelegateProtocol.Join open = new DelegateProtocol.Join(false, 65536, 1 << 20, Map.of("k", "v"), -7, 4);
        Request r = DelegateProtocol.decode(DelegateProtocol.encode(
                Request.of(Op.READ, "file:///z", ExtentList.of(10, 20), 0).invalidating(ExtentList.of(0, 5)).joining(open, 3)));
        assertEquals(Op.READ, r.op());
        assertTrue(r.joins());
        assertEquals(3, r.epoch());
        assertEquals(List.of(false, 65536L, (long) (1 << 20), Map.of("k", "v"), -7L, 4),
                List.of(r.writable(), r.pageSize(), r.cacheBytes(), r.hints(), r.group(), r.groupSize()));
        assertEquals(20, r.extents().totalBytes());
        assertEquals(5, r.invalidate().totalBytes(), "joining keeps the invalidations");
        Request plain = DelegateProtocol.decode(DelegateProtocol.read("file:///z", ExtentList.of(10, 20)));
        assertEquals(false, plain.joins());
        Request sync = DelegateProtocol.decode(DelegateProtocol.collective(Op.SYNC, "file:///z", 9, 5));
        assertEquals(List.of(9L, 5L, false), List.of(sync.group(), sync.epoch(), sync.joins()));
        assertThrows(IllegalArgumentException.class, () -> new DelegateProtocol.Join(true, 4096, 0, Map.of(), 1, 0));
    }

    @Test
    void truncatedAndOversizedMessagesAreRefusedWithoutAllocatingFromTheirCounts() {
        byte[] w = DelegateProtocol.write("file:///y", ExtentList.of(0, 64), new byte[64]);
        for (int cut : new int[]{0, 1, 5, 20, w.length / 2, w.length - 1}) {
            IOException e = assertThrows(IOException.class, () -> DelegateProtocol.decode(Arrays.copyOf(w, cut)), "cut at " + cut);
            assertTrue(e.getMessage().contains("delegate request"), e.getMessage());
        }
        byte[] huge = w.clone();
        ByteBuffer.wrap(huge, 1, 4).putInt(Integer.MAX_VALUE);   // the file name's length
        IOException e = assertThrows(IOException.class, () -> DelegateProtocol.decode(huge));
        assertTrue(e.getMessage().contains("exceeds"), e.getMessage());
        byte[] badOp = w.clone();
        badOp[0] = (byte) 200;
        assertThrows(IOException.class, () -> DelegateProtocol.decode(badOp));
    }
}
