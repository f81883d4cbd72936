package io.pdla.storage.posix;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** One mapping per open file for the whole JVM: shared while open, gone with the last close, never across versions. */
class SharedMappingsTest {
    @TempDir
    Path dir;

    private static final OpenOptions READ_ONLY = new OpenOptions(true, false, false, false, Map.of());

    private static byte[] read(StorageFile f, long offset, int len) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(len);
        while (b.hasRemaining() && f.read(offset + b.position(), b) > 0) {
            // a mapped read returns it all at once; the channel may return less
        }
        return Arrays.copyOf(b.array(), b.position());
    }

    @Test
    void handlesOfOneFileShareOneMappingThatOutlivesTheHandleThatMadeIt() throws Exception {
        byte[] content = new byte[3 * MappedReads.MIN_BYTES];
        new Random(1).nextBytes(content);
        Path p = Files.write(dir.resolve("a"), content);
        int before = SharedMappings.entries();
        StorageFile first = new PosixDriver().open(p.toUri(), READ_ONLY);
        StorageFile second = new PosixDriver().open(p.toUri(), READ_ONLY);
        assertEquals(before + 1, SharedMappings.entries(), "two handles of one file, one mapping");
        assertArrayEquals(Arrays.copyOfRange(content, 5, 5 + MappedReads.MIN_BYTES), read(first, 5, MappedReads.MIN_BYTES));
        first.close();   // the channel that made the mapping is gone; the mapping serves the other handle
        assertEquals(before + 1, SharedMappings.entries());
        assertArrayEquals(Arrays.copyOfRange(content, 1000, 1000 + 2 * MappedReads.MIN_BYTES), read(second, 1000, 2 * MappedReads.MIN_BYTES));
        second.close();
        assertEquals(before, SharedMappings.entries(), "the last close removes the mapping");
    }

    @Test
    void anotherVersionOfTheFileNeverSeesTheOldMapping() throws Exception {
        Path p = dir.resolve("b");
        byte[] v1 = new byte[2 * MappedReads.MIN_BYTES];
        Arrays.fill(v1, (byte) 1);
        Files.write(p, v1);
        int before = SharedMappings.entries();
        try (StorageFile old = new PosixDriver().open(p.toUri(), READ_ONLY)) {
            assertArrayEquals(Arrays.copyOf(v1, MappedReads.MIN_BYTES), read(old, 0, MappedReads.MIN_BYTES));
            // replaced by rename (a new inode) and, separately, grown in place (a new size): neither shares the old entry
            byte[] v2 = new byte[4 * MappedReads.MIN_BYTES];
            Arrays.fill(v2, (byte) 2);
            Path tmp = Files.write(dir.resolve("b.new"), v2);
            Files.move(tmp, p, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            try (StorageFile fresh = new PosixDriver().open(p.toUri(), READ_ONLY)) {
                assertEquals(before + 2, SharedMappings.entries());
                assertArrayEquals(Arrays.copyOfRange(v2, 3 * MappedReads.MIN_BYTES, 4 * MappedReads.MIN_BYTES),
                        read(fresh, 3 * MappedReads.MIN_BYTES, MappedReads.MIN_BYTES));
            }
            assertArrayEquals(Arrays.copyOf(v1, MappedReads.MIN_BYTES), read(old, MappedReads.MIN_BYTES, MappedReads.MIN_BYTES),
                    "the handle of the replaced file keeps reading the bytes it opened");
        }
        assertEquals(before, SharedMappings.entries());
    }

    @Test
    void aSettingThatIsNotASizeFallsBackToTheDefault() {
        assertEquals(16 << 10, MappedReads.minBytes("16k", 256 << 10));
        assertEquals(256 << 10, MappedReads.minBytes(null, 256 << 10));
        assertEquals(256 << 10, MappedReads.minBytes("lots", 256 << 10));
    }
}
