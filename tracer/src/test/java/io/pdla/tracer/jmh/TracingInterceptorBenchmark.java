package io.pdla.tracer.jmh;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.AppIdentity;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.IoCall;
import io.pdla.intercept.IoInterceptor;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.posix.PosixDriver;
import io.pdla.tracer.runtime.TraceSettings;
import io.pdla.tracer.runtime.Tracing;
import io.pdla.tracer.runtime.TracingInterceptor;
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
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Per-call cost of the tracing interceptor. {@code handled*}: the chain ends in an interceptor that
 * handles the call without I/O (as redirect does when it serves a request), so the difference between
 * {@code handledTraced} and {@code handledUntraced} is the tracer's own cost (timing, counters, encoding;
 * the background write included as it competes for the CPU). {@code posix*}: real 4 KiB positional writes
 * through the POSIX driver, with and without the tracer.
 *
 * <p>Run: {@code mvn -q -o -pl tracer test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test}
 * then {@code java -cp tracer/target/test-classes:tracer/target/classes:$(cat tracer/target/cp.txt) io.pdla.tracer.jmh.TracingInterceptorBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TracingInterceptorBenchmark {
    /** Extents per call: 1 for IOR-style requests, 16 for a view-based Tile-IO read. */
    @Param({"1", "16"})
    int extents;

    private Path tmp;
    private FileContext file;
    private InterceptorChain untraced;
    private InterceptorChain traced;
    private InterceptorChain posixUntraced;
    private InterceptorChain posixTraced;
    private ByteBuffer buffer;
    private ExtentList[] accesses;
    private int next;

    /** Ends every call without touching the file: stands for a driver of zero cost. */
    private static final IoInterceptor HANDLED = new IoInterceptor() {
        @Override
        public long intercept(IoCall call, Chain chain) {
            return call.extents().totalBytes();
        }
    };

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        tmp = Files.createTempDirectory("pdla-jmh");
        PosixDriver driver = new PosixDriver();
        Path data = tmp.resolve("data");
        file = new FileContext("data", data.toUri(), 9, 0, 1, new AppIdentity("Bench", 1), Map.of(), driver,
                driver.open(data.toUri(), OpenOptions.createReadWrite()));
        TracingInterceptor tracer = new TracingInterceptor(Map.of(TraceSettings.HINT_DIR, tmp.resolve("trace").toString()));
        untraced = new InterceptorChain(List.of(HANDLED));
        traced = new InterceptorChain(List.of(tracer, HANDLED));
        posixUntraced = InterceptorChain.empty();
        posixTraced = new InterceptorChain(List.of(tracer));
        traced.opened(file);
        buffer = ByteBuffer.allocateDirect(4096 * extents);
        // strided accesses over 64 MiB, so traced runs look like IOR's and the data file stays small
        accesses = new ExtentList[4096];
        for (int i = 0; i < accesses.length; i++) {
            ExtentList.Builder b = ExtentList.builder(extents);
            for (int k = 0; k < extents; k++) b.add(((long) i * extents + k) * 4096 * 2 % (64L << 20), 4096);
            accesses[i] = b.build();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        traced.closing(file);
        file.file().close();
        Tracing.finishAll();
        try (Stream<Path> s = Files.walk(tmp)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    private IoCall nextCall() {
        ExtentList e = accesses[next++ & (accesses.length - 1)];
        buffer.clear();
        return IoCall.data(file, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, false, e, buffer);
    }

    @Benchmark
    public long handledUntraced() throws IOException {
        return untraced.execute(nextCall());
    }

    @Benchmark
    public long handledTraced() throws IOException {
        return traced.execute(nextCall());
    }

    @Benchmark
    public long posixUntraced() throws IOException {
        return posixUntraced.execute(nextCall());
    }

    @Benchmark
    public long posixTraced() throws IOException {
        return posixTraced.execute(nextCall());
    }

    public static void main(String[] args) throws Exception {
        new Runner(new OptionsBuilder().include(TracingInterceptorBenchmark.class.getSimpleName()).build()).run();
    }
}
