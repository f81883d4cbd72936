package io.pdla.redirect;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link KilledRankTest} reads the killed rank's protocol: the write in flight must be the one the rank began last. */
class KilledRankLogTest {
    static final int BLOCK = 4096, STRIDE = 4 * BLOCK, COUNT = 64;

    private static long offset(int i) {
        return (long) i * STRIDE + (i % 3 == 2 ? BLOCK : 0);
    }

    /** {@code n} complete writes (BEGIN and ACK), i = 0.., seeds 100 + write number. */
    private static List<String> writes(int n) {
        List<String> out = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            long off = offset(k % COUNT);
            out.add("BEGIN " + off + " " + BLOCK + " " + (100 + k));
            out.add("ACK " + off + " " + BLOCK + " " + (100 + k));
        }
        return out;
    }

    @Test
    void aJvmWarningOnStdoutDoesNotShiftTheWriteInFlight() {
        List<String> lines = writes(65);                  // writes 0..64: the last at index 0 again, then index 1 begun
        lines.add(3, "[12.345s][warning][os,thread] Failed to start thread \"Unknown thread\" - pthread_create failed (EAGAIN)");
        lines.add("BEGIN " + offset(1) + " " + BLOCK + " 999");
        KilledRankLog log = KilledRankLog.parse(lines);
        assertEquals(offset(1), log.inFlight(), "the write begun and never acknowledged");
        assertFalse(log.acked().containsKey(offset(1)), "its offset is settled by the sync, not checked against an older ack");
        assertEquals(65, log.ackLines());
        assertEquals(1, log.other().size());
        // the rule this replaces took the write in flight to be number (stdout lines % COUNT) when the rank printed
        // ACK lines only: 65 of them and the warning made 66, so it named write 2 and checked write 1 as acknowledged
        int oldLines = log.ackLines() + log.other().size();
        assertEquals(offset(2), offset(oldLines % COUNT));
    }

    @Test
    void aRankKilledBetweenTwoWritesHasNoneInFlight() {
        KilledRankLog log = KilledRankLog.parse(writes(7));
        assertNull(log.inFlight());
        assertEquals(7, log.acked().size());
        assertEquals(7, log.ackLines());
    }

    @Test
    void theLastAckAtAnOffsetIsTheOneChecked() {
        KilledRankLog log = KilledRankLog.parse(writes(COUNT + 2)); // offsets 0 and 1 written twice
        assertEquals(100 + COUNT, log.acked().get(offset(0))[1]);
        assertEquals(100 + COUNT + 1, log.acked().get(offset(1))[1]);
    }

    @Test
    void anAckTheKillCutShortLeavesItsWriteInFlight(@TempDir Path tmp) throws IOException {
        Path protocol = tmp.resolve("rank.log");
        List<String> lines = writes(5);
        lines.add("BEGIN " + offset(5) + " " + BLOCK + " 123456");
        // the kill came inside the ACK's write(2) (a line across a page boundary can be cut): "ACK <off> 4096 12"
        Files.writeString(protocol, String.join("\n", lines) + "\nACK " + offset(5) + " " + BLOCK + " 12");
        KilledRankLog log = KilledRankLog.read(protocol);
        assertEquals(offset(5), log.inFlight(), "a torn ACK is no acknowledgement; its seed would name other bytes");
        assertFalse(log.acked().containsKey(offset(5)));
        assertEquals(11, log.lines().size(), "five writes and the BEGIN; the cut line is not one");
        assertEquals(List.of(), KilledRankLog.read(tmp.resolve("not-yet")).lines(), "before the rank creates it: no lines");
    }

    @Test
    void anAckThatMatchesNoBeginIsAnError() {
        assertThrows(IllegalStateException.class, () -> KilledRankLog.parse(List.of("ACK 0 4096 5")));
    }
}
