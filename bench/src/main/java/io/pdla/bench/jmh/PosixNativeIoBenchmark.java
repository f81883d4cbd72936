package io.pdla.bench.jmh;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import io.pdla.storage.posix.NativePosix;
import io.pdla.storage.posix.PosixDriver;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The POSIX driver's heap-array transfers, native path ({@code posix_native_io=true}: pread/pwrite into the pinned
 * array, one copy) against the FileChannel path ({@code false}: two copies through a temporary direct buffer), four
 * threads on one read-write handle (no mapping) of a 64 MiB file kept in the page cache: software cost, not the disk;
 * {@code readOfReadOnlyFile} reads through a read-only handle, whose reads of 256 KiB or more come from its mapping.
 * Throughput is transfers per millisecond; multiply by {@code size} for bytes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 4, time = 1)
@Threads(4)
@Fork(1)
public class PosixNativeIoBenchmark {
    private static final long FILE_BYTES = 64L << 20;

    @Param({"16384", "262144", "1048576"})
    public int size;

    @Param({"true", "false"})
    public String nativeIo;

    private Path dir;
    private StorageFile file;
    /** The same file opened read-only: reads of 256 KiB or more come from its memory mapping. */
    private StorageFile readOnly;

    @Setup(Level.Trial)
    public void open() throws IOException {
        dir = Files.createTempDirectory("pdla-jmh-native");
        Path p = dir.resolve("f");
        file = new PosixDriver().open(p.toUri(), OpenOptions.createReadWrite().withHints(Map.of(PosixDriver.HINT_NATIVE_IO, nativeIo)));
        ByteBuffer fill = ByteBuffer.allocate(1 << 20);
        for (long at = 0; at < FILE_BYTES; at += fill.capacity()) file.write(at, fill.clear());
        readOnly = new PosixDriver().open(p.toUri(), OpenOptions.readOnly().withHints(Map.of(PosixDriver.HINT_NATIVE_IO, nativeIo)));
        if (nativeIo.equals("true") && !NativePosix.available()) {
            throw new IllegalStateException("native path not loaded: " + NativePosix.unavailableReason());
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        file.close();
        readOnly.close();
        Files.deleteIfExists(dir.resolve("f"));
        Files.deleteIfExists(dir);
    }

    @State(Scope.Thread)
    public static class Buffer {
        ByteBuffer heap;

        @Setup(Level.Trial)
        public void allocate(PosixNativeIoBenchmark b) {
            heap = ByteBuffer.allocate(b.size);
        }
    }

    private long offset() {
        return ThreadLocalRandom.current().nextLong(FILE_BYTES / size) * size;
    }

    @Benchmark
    public int read(Buffer b) throws IOException {
        return file.read(offset(), b.heap.clear());
    }

    /** Reads of a read-only handle: mapped from 256 KiB, below that the path under test. */
    @Benchmark
    public int readOfReadOnlyFile(Buffer b) throws IOException {
        return readOnly.read(offset(), b.heap.clear());
    }

    @Benchmark
    public int write(Buffer b) throws IOException {
        file.write(offset(), b.heap.clear());
        return b.heap.position();
    }
}
