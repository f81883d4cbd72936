package io.pdla.bench.jmh;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.AppIdentity;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.IoCall;
import io.pdla.intercept.IoInterceptor;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
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
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Per-call cost of the layers under {@code io.pdla.mpiio.File} for one small transfer: a bare
 * {@link FileChannel} positional call, the POSIX driver's {@link StorageFile}, and the same call built as
 * an {@link IoCall} and run through an {@link InterceptorChain} with no interceptors (the shim's path when
 * tracing and redirection are off) and with one pass-through interceptor. {@code File} itself is not
 * measured here: opening one needs {@code MPI.Init}, which JMH forks cannot do (the IOR benchmark covers
 * the whole shim). Offsets cycle over 1 MiB so the data stays in the page cache: this measures software
 * overhead, not the disk.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ShimOverheadBenchmark {
    private static final int SLOTS = 256;

    @Param({"4096"})
    public int size;

    private Path dir;
    private FileChannel channel;
    private StorageFile driverFile;
    private FileContext context;
    private InterceptorChain empty;
    private InterceptorChain oneInterceptor;
    private ByteBuffer buffer;
    private int slot;

    @Setup(Level.Trial)
    public void open() throws IOException {
        dir = Files.createTempDirectory("pdla-jmh");
        Path channelFile = dir.resolve("channel");
        Path shimFile = dir.resolve("driver");
        channel = FileChannel.open(channelFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        PosixDriver driver = new PosixDriver();
        driverFile = driver.open(shimFile.toUri(), OpenOptions.createReadWrite());
        context = new FileContext(shimFile.toString(), shimFile.toUri(), 0, 0, 1, new AppIdentity("jmh", 1), Map.of(), driver, driverFile);
        empty = InterceptorChain.empty();
        oneInterceptor = new InterceptorChain(List.of(new IoInterceptor() {
        }));
        buffer = ByteBuffer.allocate(size);
        // fill both files so reads return full transfers
        for (int i = 0; i < SLOTS; i++) {
            channel.write(buffer.clear(), (long) i * size);
            driverFile.write((long) i * size, buffer.clear());
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        channel.close();
        driverFile.close();
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) Files.deleteIfExists(p);
        }
        Files.deleteIfExists(dir);
    }

    private long nextOffset() {
        slot = (slot + 1) % SLOTS;
        return (long) slot * size;
    }

    @Benchmark
    public int fileChannelWrite() throws IOException {
        return channel.write(buffer.clear(), nextOffset());
    }

    @Benchmark
    public long driverWrite() throws IOException {
        driverFile.write(nextOffset(), buffer.clear());
        return buffer.position();
    }

    @Benchmark
    public long chainWrite() throws IOException {
        long off = nextOffset();
        return empty.execute(IoCall.data(context, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(off, size), buffer.clear()));
    }

    @Benchmark
    public long chainWriteOneInterceptor() throws IOException {
        long off = nextOffset();
        return oneInterceptor.execute(IoCall.data(context, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(off, size), buffer.clear()));
    }

    @Benchmark
    public int fileChannelRead() throws IOException {
        return channel.read(buffer.clear(), nextOffset());
    }

    @Benchmark
    public int driverRead() throws IOException {
        return driverFile.read(nextOffset(), buffer.clear());
    }

    @Benchmark
    public long chainRead() throws IOException {
        long off = nextOffset();
        return empty.execute(IoCall.data(context, IoOp.READ, Positioning.EXPLICIT_OFFSET, false, ExtentList.of(off, size), buffer.clear()));
    }
}
