package io.pdla.replicator.construct;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shared copy's read-ahead ends when closed or at its end, and leaves its own handle closed behind it. */
class ReadAheadTest {
    @TempDir
    Path tmp;

    private static Thread readAheadThread() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("pdla-replica-read-ahead") && t.isAlive()).findFirst().orElse(null);
    }

    private StorageFile open(Path f) throws IOException {
        URI u = f.toUri();
        return StorageDrivers.installed().forUri(u).open(u, OpenOptions.readOnly());
    }

    @Test
    void aReadAheadThatIsClosedEndsItsThreadEvenWhenTheCopyNeverMoved() throws Exception {
        Path f = tmp.resolve("f.bin");
        Files.write(f, new byte[4 << 20]);
        ReadAhead ahead = new ReadAhead(open(f), 0, 4 << 20, 64 << 10, 128 << 10);
        // the copy stays at 0: the read-ahead reads its 128 KiB and then waits for the copy to move
        Thread t = readAheadThread();
        assertTrue(t != null, "the read-ahead runs on a thread of its own");
        ahead.close();
        t.join(5000);
        assertFalse(t.isAlive(), "the read-ahead thread ends when closed");
    }

    @Test
    void aReadAheadFollowingTheCopyToTheEndStopsThere() throws Exception {
        Path f = tmp.resolve("g.bin");
        Files.write(f, new byte[1 << 20]);
        try (ReadAhead ahead = new ReadAhead(open(f), 0, 1 << 20, 64 << 10, 128 << 10)) {
            for (long at = 0; at < (1 << 20); at += 64 << 10) ahead.at(at);
            ahead.at(1 << 20);
            long end = System.nanoTime() + 10_000_000_000L;
            while (readAheadThread() != null && System.nanoTime() < end) Thread.sleep(10);
            assertTrue(readAheadThread() == null, "the read-ahead ends by itself once it has read to its end");
        }
    }
}
