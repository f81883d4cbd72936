package io.pdla.testing.fuzz;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs a parser on damaged input the way issue 18 demands: it must finish (never a hang: a time limit) and
 * must not allocate far beyond what the input could hold (never an allocation driven by an unchecked length:
 * the bytes the parsing thread allocated, measured by the JVM, are bounded by a multiple of the input size).
 * The outcome is the value or what was thrown, for the property to judge.
 */
public final class Bounded {
    private static final com.sun.management.ThreadMXBean THREADS = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fuzz-parse");
        t.setDaemon(true);
        return t;
    });

    private Bounded() {
    }

    /** What a bounded run gave: a value or a throwable (never both), and the bytes it allocated. */
    public record Outcome<T>(T value, Throwable error, long allocatedBytes) {
        public boolean failed() {
            return error != null;
        }
    }

    /**
     * Runs {@code parse} within {@code limit}; fails the property if it does not finish or allocates more than
     * {@code allowedBytes}. Errors (Throwable) are returned, not thrown.
     */
    public static <T> Outcome<T> run(Duration limit, long allowedBytes, Callable<T> parse) {
        Future<Outcome<T>> f = POOL.submit(() -> {
            long id = Thread.currentThread().getId();
            long before = THREADS.getThreadAllocatedBytes(id);
            T v = null;
            Throwable err = null;
            try {
                v = parse.call();
            } catch (Throwable t) {
                err = t;
            }
            return new Outcome<>(v, err, THREADS.getThreadAllocatedBytes(id) - before);
        });
        Outcome<T> o;
        try {
            o = f.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            return fail("did not finish within " + limit + " (a hang on damaged input)");
        } catch (InterruptedException | ExecutionException e) {
            return fail("harness failure", e);
        }
        if (o.error() instanceof OutOfMemoryError) fail("ran out of memory on damaged input", o.error());
        if (o.allocatedBytes() > allowedBytes) {
            fail("allocated " + o.allocatedBytes() + " bytes on damaged input, more than the " + allowedBytes + " allowed"
                    + (o.error() != null ? " (then threw " + o.error() + ")" : ""));
        }
        return o;
    }

    /** The usual bound: 5 s, and 64 bytes per input byte plus 8 MiB of fixed overhead (buffers, class loading, exceptions). */
    public static <T> Outcome<T> run(long inputBytes, Callable<T> parse) {
        return run(Duration.ofSeconds(5), 64 * inputBytes + (8L << 20), parse);
    }

    /** A throwable's class and message, and its causes', for assertion messages. */
    public static String describe(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (sb.length() > 0) sb.append(" <- ");
            sb.append(c.getClass().getName()).append(": ").append(c.getMessage());
        }
        return sb.toString();
    }
}
