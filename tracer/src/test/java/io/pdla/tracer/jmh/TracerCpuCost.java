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

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The tracer's own cost per call in CPU time rather than wall time, which a shared machine's load distorts
 * less: the calling thread's CPU ({@link ThreadMXBean}) and the whole process's (the writer thread, GC and
 * JIT included), for calls that end in an interceptor doing no I/O, traced minus untraced, alternating, the
 * median of the rounds. Not JMH: plain loops, as {@link PerCallParts}. Uses only the tracer's public API, so
 * the same class measures another build's tracer classes put first on the class path.
 *
 * <p>{@code java -cp tracer/target/test-classes:TRACER_CLASSES:... io.pdla.tracer.jmh.TracerCpuCost [calls] [rounds] [extents] [handled|posix|posix-read]}
 */
public final class TracerCpuCost {
    private TracerCpuCost() {
    }

    private static final IoInterceptor HANDLED = new IoInterceptor() {
        @Override
        public long intercept(IoCall call, Chain chain) {
            return call.extents().totalBytes();
        }
    };

    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        int extents = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        // "handled": calls end in an interceptor that does no I/O (the tracer's cost alone); "posix": real
        // 4 KiB positional writes through the POSIX driver into the page cache, untraced with an empty chain
        boolean posix = args.length > 3 && args[3].startsWith("posix");
        IoOp op = args.length > 3 && args[3].equals("posix-read") ? IoOp.READ : IoOp.WRITE;
        Path tmp = Files.createTempDirectory("pdla-cpu");
        PosixDriver driver = new PosixDriver();
        Path data = tmp.resolve("data");
        FileContext file = new FileContext("data", data.toUri(), 9, 0, 1, new AppIdentity("CpuCost", 1), Map.of(), driver,
                driver.open(data.toUri(), OpenOptions.createReadWrite()));
        TracingInterceptor tracer = new TracingInterceptor(Map.of(TraceSettings.HINT_DIR, tmp.resolve("trace").toString()));
        InterceptorChain untraced = posix ? InterceptorChain.empty() : new InterceptorChain(List.of(HANDLED));
        InterceptorChain traced = posix ? new InterceptorChain(List.of(tracer)) : new InterceptorChain(List.of(tracer, HANDLED));
        traced.opened(file);
        ByteBuffer buffer = ByteBuffer.allocate(4096 * extents);
        long span = posix ? 64L << 20 : Long.MAX_VALUE; // keeps the data file in the page cache
        // IOR-like: each rank's blocks of 4 KiB transfers, 4096 per block, blocks np = 4 apart
        IoCall[] pattern = new IoCall[1 << 14];
        for (int i = 0; i < pattern.length; i++) {
            ExtentList.Builder b = ExtentList.builder(extents);
            for (int k = 0; k < extents; k++) {
                long t = (long) i * extents + k;
                b.add((t / 4096 * 4 * 4096 + t % 4096) * 4096 % span, 4096);
            }
            pattern[i] = IoCall.data(file, op, Positioning.EXPLICIT_OFFSET, false, b.build(), buffer);
        }
        if (op == IoOp.READ) { // the file's bytes in the page cache first, so reads move data
            buffer.clear();
            for (IoCall c : pattern) file.file().writev(c.extents(), buffer.clear());
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        double[] ratio = new double[rounds];
        double[] caller = new double[rounds];
        double[] process = new double[rounds];
        long sink = 0;
        for (int r = -2; r < rounds; r++) {
            long[] cpu = new long[4];
            for (int side = 0; side < 2; side++) {
                InterceptorChain chain = (r + side) % 2 == 0 ? untraced : traced;
                long c0 = threads.getCurrentThreadCpuTime(), p0 = os.getProcessCpuTime();
                for (int i = 0; i < calls; i++) {
                    buffer.clear(); // a write consumes the buffer
                    sink += chain.execute(pattern[i & (pattern.length - 1)]);
                }
                long c1 = threads.getCurrentThreadCpuTime(), p1 = os.getProcessCpuTime();
                int at = chain == traced ? 0 : 2;
                cpu[at] = c1 - c0;
                cpu[at + 1] = p1 - p0;
            }
            if (r < 0) continue; // warm-up rounds
            caller[r] = (cpu[0] - cpu[2]) / (double) calls;
            process[r] = (cpu[1] - cpu[3]) / (double) calls;
            ratio[r] = cpu[3] / (double) cpu[1];
            System.out.printf("round %d: tracer's CPU per call %.1f ns in the caller, %.1f ns in the process (untraced call %.1f ns)%n",
                    r, caller[r], process[r], cpu[2] / (double) calls);
        }
        traced.closing(file);
        Tracing.finishAll();
        Arrays.sort(caller);
        Arrays.sort(process);
        Arrays.sort(ratio);
        System.out.printf("median of %d rounds, %d %s calls of %d extent(s) each: tracer's CPU per call: caller %.1f ns, process %.1f ns;"
                        + " process CPU untraced/traced %.3f (%d)%n",
                rounds, calls, posix ? "POSIX 4 KiB " + op : "handled", extents, caller[rounds / 2], process[rounds / 2], ratio[rounds / 2], sink & 1);
        try (var s = Files.walk(tmp)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
