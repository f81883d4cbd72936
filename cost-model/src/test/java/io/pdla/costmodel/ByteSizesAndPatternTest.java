package io.pdla.costmodel;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ByteSizesAndPatternTest {

    @ParameterizedTest
    @CsvSource({"4096, 4096", "4k, 4096", "4K, 4096", "4KiB, 4096", "64kb, 65536", "1m, 1048576",
        "3M, 3145728", "2g, 2147483648", "0, 0"})
    void parsesBinarySuffixes(String text, long bytes) {
        assertEquals(bytes, ByteSizes.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "k", "4x", "-4k", "1.5m", "99999999999g"})
    void rejectsMalformedSizes(String text) {
        assertThrows(IllegalArgumentException.class, () -> ByteSizes.parse(text));
    }

    @Test
    void formatIsTheInverseOfParse() {
        for (long b : new long[] {1, 1000, 4096, 65536, 1 << 20, 3L << 30, 4097}) {
            assertEquals(b, ByteSizes.parse(ByteSizes.format(b)));
        }
    }

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
