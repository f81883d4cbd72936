package io.pdla.cli;

import io.pdla.costmodel.calibration.ProbeRunner;
import io.pdla.costmodel.calibration.ProbeTarget;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Timed probes through a storage driver, for {@code pdla cost calibrate --uri}: {@code c} threads each
 * issue one request of {@code s} bytes at a random slot of a scratch file, released together, and the
 * probe's time is until the last one completes. Reads fit the device's read pair, writes its write pair.
 * The network pair is not probed (a driver call cannot separate it from the device) and keeps its default.
 * On a local file system the page cache serves repeated reads, and the fit then describes that.
 */
final class DriverProbes implements Closeable {
    private final StorageDriver driver;
    private final URI uri;
    private final StorageFile file;
    private final long slotBytes;
    private final int slots;
    private final ExecutorService pool;
    private final Random random = new Random(7);

    DriverProbes(String location, long maxSize, int maxConcurrency) throws IOException {
        this(location, maxSize, maxConcurrency, Map.of());
    }

    /** {@code hints} go to the scratch file's open (e.g. posix_direct_io=true: probe the device, not the page cache). */
    DriverProbes(String location, long maxSize, int maxConcurrency, Map<String, String> hints) throws IOException {
        this.uri = StorageDrivers.toUri(location);
        this.driver = StorageDrivers.installed().forUri(uri);
        this.slotBytes = maxSize;
        this.slots = Math.max(16, maxConcurrency * 4);
        this.file = driver.open(uri, OpenOptions.createReadWrite().withHints(hints));
        ByteBuffer chunk = ByteBuffer.allocate((int) Math.min(maxSize, 1 << 20));
        new Random(1).nextBytes(chunk.array());
        for (long off = 0; off < slotBytes * slots; off += chunk.capacity()) {
            chunk.clear();
            file.write(off, chunk);
        }
        file.sync();
        this.pool = Executors.newFixedThreadPool(maxConcurrency);
    }

    /** HDD: reads fit a_h, b_h. SSD: reads fit the SSD read pair, writes the SSD write pair. */
    Map<ProbeTarget, ProbeRunner> runners(boolean ssd) {
        Map<ProbeTarget, ProbeRunner> m = new EnumMap<>(ProbeTarget.class);
        if (ssd) {
            m.put(ProbeTarget.SSD_READ, (s, c) -> probe(s, c, false));
            m.put(ProbeTarget.SSD_WRITE, (s, c) -> probe(s, c, true));
        } else {
            m.put(ProbeTarget.HDD, (s, c) -> probe(s, c, false));
        }
        return m;
    }

    private double probe(long size, int concurrency, boolean write) throws IOException {
        if (size > slotBytes) throw new IllegalArgumentException("probe size " + size + " above the scratch slot size " + slotBytes);
        CyclicBarrier start = new CyclicBarrier(concurrency + 1);
        List<Future<long[]>> done = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            long offset = (long) random.nextInt(slots) * slotBytes;
            done.add(pool.submit(() -> {
                ByteBuffer buf = ByteBuffer.allocate((int) size);
                start.await();
                long t0 = System.nanoTime();
                if (write) file.write(offset, buf);
                else file.read(offset, buf);
                return new long[]{t0, System.nanoTime()};
            }));
        }
        try {
            start.await();
            // From the first request's start to the last one's end, both taken by the workers themselves.
            long first = Long.MAX_VALUE, last = Long.MIN_VALUE;
            for (Future<long[]> f : done) {
                long[] t = f.get();
                first = Math.min(first, t[0]);
                last = Math.max(last, t[1]);
            }
            return Math.max(1e-9, (last - first) / 1e9);
        } catch (Exception e) {
            throw new IOException("probe of " + size + " bytes x " + concurrency + " on " + uri + " failed: " + e, e);
        }
    }

    @Override
    public void close() throws IOException {
        pool.shutdownNow();
        file.close();
        driver.delete(uri);
    }
}
