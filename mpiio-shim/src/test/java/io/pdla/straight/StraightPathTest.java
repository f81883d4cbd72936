package io.pdla.straight;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The straight path on its own, over a real local file (the shim's differential tests compare it with the general
 * path through whole handles): what it takes, what it leaves to the general path ({@link StraightPath#NOT_TAKEN}, with
 * nothing read), and that it follows what the handle tells it.
 */
class StraightPathTest {
    private static final int FILE_BYTES = 1 << 16;
    private static final Object BYTE = new Object(), INT = new Object(), OTHER = new Object();

    @TempDir
    Path dir;
    private StorageFile store;
    private StraightPath path;
    private byte[] content;

    @BeforeEach
    void open() throws IOException {
        content = new byte[FILE_BYTES];
        for (int i = 0; i < content.length; i++) content[i] = (byte) (i * 31 + 7);
        Path file = dir.resolve("data");
        Files.write(file, content);
        URI uri = file.toUri();
        StorageDriver driver = StorageDrivers.installed().forUri(uri);
        store = driver.open(uri, OpenOptions.readOnly());
        FileContext context = new FileContext(file.toString(), uri, 0, 0, 1, null, Map.of(), driver, store);
        path = new StraightPath(context, InterceptorChain.empty(), null, 1 << 20, true, false);
        path.view(NEVER_ASKED, 1, true, 0);
        path.plainType(BYTE, 1);
    }

    @AfterEach
    void close() throws IOException {
        store.close();
    }

    private static final StraightPath.RunView NEVER_ASKED = (position, bytes) -> {
        throw new AssertionError("a contiguous view's runs are worked out by the path");
    };

    private long read(long position, Object buf, int from, int count, Object type) throws IOException {
        return path.independent(IoOp.READ, Positioning.EXPLICIT_OFFSET, position, buf, from, count, type);
    }

    @Test
    void aPlainCallIsOneReadOfTheRightBytes() throws IOException {
        byte[] buf = new byte[100];
        assertEquals(60, read(1000, buf, 20, 60, BYTE));
        assertArrayEquals(Arrays.copyOfRange(content, 1000, 1060), Arrays.copyOfRange(buf, 20, 80));
        path.plainType(INT, 4);
        assertEquals(80, read(8, buf, 0, 20, INT), "20 items of 4 bytes");
        assertArrayEquals(Arrays.copyOfRange(content, 8, 88), Arrays.copyOfRange(buf, 0, 80));
    }

    @Test
    void aContiguousViewShiftsTheOffsetByItsStartInEtypes() throws IOException {
        path.view(NEVER_ASKED, 4, true, 100);
        byte[] buf = new byte[16];
        assertEquals(16, read(3, buf, 0, 16, BYTE));
        assertArrayEquals(Arrays.copyOfRange(content, 112, 128), buf);
        assertEquals(StraightPath.NOT_TAKEN, read(3, buf, 0, 6, BYTE), "6 bytes are not whole 4-byte etypes");
    }

    @Test
    void aViewThatIsNotContiguousIsAskedForTheRun() throws IOException {
        path.view((position, bytes) -> position == 2 && bytes == 8 ? 4000 : -1, 1, false, 0);
        byte[] buf = new byte[8];
        assertEquals(8, read(2, buf, 0, 8, BYTE));
        assertArrayEquals(Arrays.copyOfRange(content, 4000, 4008), buf);
        assertEquals(StraightPath.NOT_TAKEN, read(3, buf, 0, 8, BYTE), "the view says the bytes are not one run");
        path.view(null, 1, true, 0);
        assertEquals(StraightPath.NOT_TAKEN, read(2, buf, 0, 8, BYTE), "a view whose calls are never plain runs");
    }

    @Test
    void callsItDoesNotTakeReadNothing() throws IOException {
        byte[] buf = new byte[64];
        assertEquals(StraightPath.NOT_TAKEN, read(0, buf, 0, 8, OTHER), "a type not found plain");
        assertEquals(StraightPath.NOT_TAKEN, read(0, new int[8], 0, 8, BYTE), "not a byte array");
        assertEquals(StraightPath.NOT_TAKEN, read(0, buf, 0, 0, BYTE), "no items");
        assertEquals(StraightPath.NOT_TAKEN, read(-1, buf, 0, 8, BYTE), "a negative position");
        assertEquals(StraightPath.NOT_TAKEN, read(0, buf, 60, 8, BYTE), "past the array's end");
        assertEquals(StraightPath.NOT_TAKEN, read(0, buf, -1, 8, BYTE), "a negative array offset");
        assertEquals(StraightPath.NOT_TAKEN, path.independent(IoOp.READ, Positioning.SHARED_POINTER, 0, buf, 0, 8, BYTE), "the shared pointer");
        assertEquals(StraightPath.NOT_TAKEN, path.independent(IoOp.WRITE, Positioning.EXPLICIT_OFFSET, 0, buf, 0, 8, BYTE), "a write where writes are not allowed");
        assertEquals(StraightPath.NOT_TAKEN, path.collective(IoOp.READ, Positioning.EXPLICIT_OFFSET, 0, buf, 0, 8, BYTE), "a collective call without an engine");
        assertArrayEquals(new byte[64], buf, "nothing was read");
    }

    @Test
    void atomicModeAndCloseSendCallsTheGeneralWay() throws IOException {
        byte[] buf = new byte[8];
        path.atomic(true);
        assertEquals(StraightPath.NOT_TAKEN, read(0, buf, 0, 8, BYTE), "atomic mode");
        path.atomic(false);
        assertEquals(8, read(0, buf, 0, 8, BYTE), "atomic mode off again");
        path.closed();
        assertEquals(StraightPath.NOT_TAKEN, read(0, buf, 0, 8, BYTE), "a closed handle");
    }

    @Test
    void aCallAbovePieceBytesIsLeftToThePieces() throws IOException {
        byte[] buf = new byte[(1 << 20) + 1];
        assertEquals(StraightPath.NOT_TAKEN, read(0, buf, 0, buf.length, BYTE));
    }
}
