package io.pdla.straight;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.collective.SharedMemoryExchange;
import io.pdla.collective.TwoPhaseEngine;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;
import io.pdla.storage.sieve.SievingStorageFile;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the straight path's independent reads and writes, with the local store beneath it (data sieving's wrapper, the
 * POSIX file, the native calls, the strided read-ahead's bookkeeping), {@value #CALLS} times over a small temporary
 * file, once per JVM, while the ranks start: a job's first calls then find that code compiled by both compilers.
 *
 * <p>Why: the ranks of a multicore job share this code ({@link StraightPath}), so one warm-up serves all of them. Without
 * it a job's first iteration of 16 KiB reads ran its first 10-25 ms in the interpreter while the compiler caught up
 * (bench/RESULTS-native.md); the binding in front of it ({@code File.readAt}) is each rank's and stays cold. The rank
 * JVMs take C2 only after ten times the JDK's invocations, except for this package and the stores'
 * ({@code MpjJob.RANK_JIT_OPTIONS}), so these calls are enough for C2 to compile the path here, not in a job's third
 * iteration of 16 KiB reads (where it took the cores from the ranks: bench/RESULTS-native.md, session 24).
 *
 * <p>The calls take the branches a job's calls take, so that C2's code is not thrown away at a job's first call for a
 * branch the warm-up never took (an uncommon trap, and the path compiled again on the job's cores): each pass is a new
 * open of the file, as a job's phase is, whose first call comes before its memory type is known, as an open's first
 * call does; passes read on, read at a stride of four reads (the ranks' blocks interleaved: the read-ahead's strided
 * branch), or write, through a store wrapped as a multicore job's is (the ranks' write-order lock) and a one-rank
 * engine that counts the writes as changes. The calls are the production classes' own, at explicit offsets through a
 * contiguous view, untraced; the warm-up writes nothing anywhere but its own file. A job that is traced may have the
 * compiled path recompiled once for the branches it adds. Nothing here is ever thrown: a failure leaves the first
 * calls to compile the path, as they did before.
 */
public final class StraightPathWarmup {
    private static final int FILE_BYTES = 256 << 10, READ_BYTES = 4 << 10, STRIDE_READS = 4, PASSES = 240;
    /**
     * The calls made: past C2's threshold for this code in a rank JVM (about 2,500 calls with {@code MpjJob}'s scaling,
     * which brings C1's down to a few dozen), with room for the thresholds' growth while the compilers' queues are long.
     */
    static final int CALLS = PASSES / 3 * (2 * (FILE_BYTES / READ_BYTES) + FILE_BYTES / READ_BYTES / STRIDE_READS);
    /** One warm-up per JVM: this class is shared by the ranks (per rank loader when sharing is off: one per rank). */
    private static final AtomicBoolean STARTED = new AtomicBoolean();
    /** A memory type as the shim gives it: any object, compared by identity. */
    private static final Object BYTES = new Object();
    /** A contiguous view's runs are worked out by the path itself; this is never asked. */
    private static final StraightPath.RunView DEFAULT_VIEW = new StraightPath.RunView() {
        @Override
        public long plainRunStart(long position, long bytes) {
            return -1;
        }
    };

    private StraightPathWarmup() {
    }

    /** Runs the warm-up unless it ran in this JVM already; returns the calls it made (0 when it did not run or failed). */
    public static int run() {
        if (!STARTED.compareAndSet(false, true)) return 0;
        Path dir = null, file = null;
        try {
            // a directory of its own (the JDK makes it rwx------): the passes open the file by name, and nobody else can
            // put another file, or a link to one, under that name
            dir = Files.createTempDirectory("pdla-warmup");
            dir.toFile().deleteOnExit();   // registered first, so deleted after the file when the JVM ends first
            file = dir.resolve("warmup.dat");
            file.toFile().deleteOnExit();
            Files.write(file, new byte[FILE_BYTES], java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE);
            return callAll(file);
        } catch (IOException | RuntimeException | LinkageError e) {
            return 0; // the first calls compile the path instead
        } finally {
            try {
                if (file != null) Files.deleteIfExists(file);
                if (dir != null) Files.deleteIfExists(dir);
            } catch (IOException e) {
                // deleteOnExit removes them
            }
        }
    }

    private static int callAll(Path file) throws IOException {
        URI uri = file.toUri();
        StorageDriver driver = StorageDrivers.installed().forUri(uri);
        // as a multicore job's stores: sieving's wrapper with the ranks' write-order lock, a one-rank engine for writes
        SharedMemoryExchange exchange = SharedMemoryExchange.join("pdla-warmup " + java.util.UUID.randomUUID(), 0, 1);
        try {
            byte[] buf = new byte[READ_BYTES];
            int calls = 0;
            for (int pass = 0; pass < PASSES; pass++) {
                boolean write = pass % 3 == 2;
                IoOp op = write ? IoOp.WRITE : IoOp.READ;
                // a handle per pass, as a job opens the file per phase: the read-ahead's state starts afresh each time
                try (StorageFile opened = driver.open(uri, write ? OpenOptions.readWrite() : OpenOptions.readOnly())) {
                    StorageFile store = SievingStorageFile.wrap(opened, Map.of(), exchange.writeOrder());
                    FileContext context = new FileContext(uri.getPath(), uri, 0, 0, 1, null, Map.of(), driver, store);
                    TwoPhaseEngine engine = write ? TwoPhaseEngine.of(exchange, Map.of(), store, InterceptorChain.empty(), new long[]{0}) : null;
                    StraightPath path = new StraightPath(context, InterceptorChain.empty(), engine, Long.MAX_VALUE, true, write);
                    path.view(DEFAULT_VIEW, 1, true, 0); // the default view: bytes from offset 0
                    // an open's first call: the binding has not yet told the path its memory type, so the path declines it
                    path.independent(op, Positioning.EXPLICIT_OFFSET, 0, buf, 0, READ_BYTES, BYTES);
                    path.plainType(BYTES, 1);
                    int stride = pass % 3 == 1 ? READ_BYTES * STRIDE_READS : READ_BYTES;
                    for (long at = 0; at + READ_BYTES <= FILE_BYTES; at += stride) {
                        if (path.independent(op, Positioning.EXPLICIT_OFFSET, at, buf, 0, READ_BYTES, BYTES) == READ_BYTES) calls++;
                    }
                }
            }
            return calls;
        } finally {
            exchange.leave();
        }
    }
}
