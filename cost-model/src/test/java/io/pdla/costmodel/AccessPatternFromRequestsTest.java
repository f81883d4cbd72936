package io.pdla.costmodel;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AccessPatternFromRequestsTest {

    @Test
    void tracedRequestsBecomeRoundsPerSizeAndOp() {
        List<Request> trace = new ArrayList<>();
        for (int rank = 0; rank < 4; rank++) {
            for (int i = 0; i < 10; i++) {
                trace.add(new Request((long) (i * 4 + rank) * 65536, 65536, Op.READ));
            }
            trace.add(new Request(1 << 30, 4096, Op.WRITE));
        }
        trace.add(new Request(0, 4096, Op.WRITE)); // a fifth small write: needs a second round
        AccessPattern pattern = AccessPattern.fromRequests(4, 2, trace);
        assertEquals(List.of(new RequestBatch(65536, 10, Op.READ), new RequestBatch(4096, 2, Op.WRITE)),
                pattern.batches());
        assertEquals(4L * 65536 * 10 + 4L * 4096 * 2, pattern.totalBytes());
    }
}
