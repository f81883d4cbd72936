package io.pdla.hdfs;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Read throughput through the hdfs: driver against a MiniDFSCluster (not a JUnit test; run by hand, see
 * bench/RESULTS-hdfs.md). Args: fileMiB requestKiB blockMiB reps. Prints one line per access shape with
 * the median MiB/s of the repetitions. The whole file is read once first so every shape finds the
 * DataNodes' block files in the page cache: the figures compare client-side paths, not disks.
 */
public final class ReadThroughputBench {
    public static void main(String[] args) throws Exception {
        int fileMiB = args.length > 0 ? Integer.parseInt(args[0]) : 64;
        int reqKiB = args.length > 1 ? Integer.parseInt(args[1]) : 256;
        int blockMiB = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        int reps = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        long fileBytes = (long) fileMiB << 20;
        int req = reqKiB << 10;
        try (MiniCluster cluster = MiniCluster.builder().diskNodes(2).ssdNodes(2).replication(2).start();
             HdfsDriver driver = new HdfsDriver()) {
            URI uri = cluster.uri("/bench/data");
            long t0 = System.nanoTime();
            try (StorageFile f = driver.open(uri, OpenOptions.createReadWrite().withHints(Map.of("hdfs_block_size", blockMiB + "m")))) {
                byte[] chunk = new byte[1 << 20];
                new Random(1).nextBytes(chunk);
                for (long off = 0; off < fileBytes; off += chunk.length) f.write(off, ByteBuffer.wrap(chunk));
            }
            report("write (append, 1 MiB requests, replication 2)", fileBytes, List.of(System.nanoTime() - t0));

            int n = (int) (fileBytes / req);
            List<Long> inOrder = new ArrayList<>();
            for (int i = 0; i < n; i++) inOrder.add((long) i * req);
            // 4 ranks, each reading every 4th request: rank 0's view of an interleaved strided pattern.
            List<Long> strided = new ArrayList<>();
            for (int i = 0; i < n; i += 4) strided.add((long) i * req);
            List<Long> shuffled = new ArrayList<>(inOrder);
            Collections.shuffle(shuffled, new Random(7));

            try (StorageFile f = driver.open(uri, OpenOptions.readOnly())) {
                preads(f, inOrder, req); // warm-up
                List<Long> stream = new ArrayList<>(), seq = new ArrayList<>(), str = new ArrayList<>(), rnd = new ArrayList<>(), par = new ArrayList<>();
                for (int r = 0; r < reps; r++) {
                    stream.add(streamRead(cluster, uri, req));
                    seq.add(preads(f, inOrder, req));
                    str.add(preads(f, strided, req));
                    rnd.add(preads(f, shuffled, req));
                    par.add(fourRanks(f, n, req));
                }
                report("sequential, Hadoop stream read() (no driver)", fileBytes, stream);
                report("sequential, driver read (stream path)", fileBytes, seq);
                report("strided 1 of 4 (stride " + 4 * reqKiB + " KiB), driver pread", (long) strided.size() * req, str);
                report("random order, driver pread", fileBytes, rnd);
                report("4 threads x strided 1 of 4 on one handle, driver reads (aggregate)", fileBytes, par);
            }
        }
    }

    private static long preads(StorageFile f, List<Long> offsets, int req) throws Exception {
        ByteBuffer buf = ByteBuffer.allocate(req);
        long t0 = System.nanoTime();
        for (long off : offsets) {
            buf.clear();
            if (f.read(off, buf) != req) throw new IllegalStateException("short read at " + off);
        }
        return System.nanoTime() - t0;
    }

    private static long streamRead(MiniCluster cluster, URI uri, int req) throws Exception {
        byte[] buf = new byte[req];
        long t0 = System.nanoTime();
        try (FSDataInputStream in = cluster.fileSystem().open(new Path(uri.getPath()))) {
            while (in.read(buf) >= 0) {
                // drain
            }
        }
        return System.nanoTime() - t0;
    }

    private static long fourRanks(StorageFile f, int n, int req) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            long t0 = System.nanoTime();
            List<Future<?>> jobs = new ArrayList<>();
            for (int rank = 0; rank < 4; rank++) {
                List<Long> mine = new ArrayList<>();
                for (int i = rank; i < n; i += 4) mine.add((long) i * req);
                jobs.add(pool.submit(() -> preads(f, mine, req)));
            }
            for (Future<?> j : jobs) j.get();
            return System.nanoTime() - t0;
        } finally {
            pool.shutdown();
        }
    }

    private static void report(String what, long bytes, List<Long> nanos) {
        long[] s = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
        long median = s[s.length / 2];
        double[] mibs = Arrays.stream(s).mapToDouble(t -> bytes / 1048576.0 / (t / 1e9)).toArray();
        System.out.printf("%-70s %8.1f MiB/s  (runs: %s)%n", what, bytes / 1048576.0 / (median / 1e9), Arrays.toString(
                Arrays.stream(mibs).map(v -> Math.round(v * 10) / 10.0).toArray()));
    }
}
