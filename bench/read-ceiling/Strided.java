import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The same strided read as strided.c, from Java: one rank per thread of this JVM (THREADS ranks starting at
 * FIRST_RANK), through FileChannel (two copies) or pdla's one-copy JNI pread into the array (io.pdla.storage.posix.NativeIo
 * through the POSIX driver is not used: this is the bare call, to separate the path from the shim). Prints one line per
 * rank, "start_ns end_ns bytes" in epoch nanoseconds. Warms up with two untimed passes first.
 * Usage: Strided channel|native FILE DIR FIRST_RANK THREADS RANKS TRANSFER SEGMENTS
 */
public class Strided {
    static native long pread0(int fd, byte[] a, int len, long pos);
    static native int open0(String path);

    public static void main(String[] a) throws Exception {
        String how = a[0]; Path file = Path.of(a[1]); Path go = Path.of(a[2], "go");
        int first = Integer.parseInt(a[3]), threads = Integer.parseInt(a[4]), ranks = Integer.parseInt(a[5]);
        int t = Integer.parseInt(a[6]); long segs = Long.parseLong(a[7]);
        if (how.equals("native")) System.load(Path.of("libstrided.so").toAbsolutePath().toString());   // built in the working directory by run
        long[][] out = new long[threads][];
        List<Thread> ts = new ArrayList<>();
        for (int k = 0; k < threads; k++) {
            int rank = first + k, slot = k;
            ts.add(new Thread(() -> {
                try (FileChannel ch = FileChannel.open(file)) {
                    int fd = how.equals("native") ? open0(file.toString()) : -1;
                    byte[] arr = new byte[t];
                    ByteBuffer bb = ByteBuffer.wrap(arr);
                    for (int w = 0; w < 3; w++) pass(how, ch, fd, arr, bb, rank, ranks, t, segs);   // warm-up, as the comparison's warm-up iteration
                    Files.createFile(go.resolveSibling("ready." + rank));
                    while (!Files.exists(go)) Thread.sleep(0, 50_000);
                    long s = epochNanos();
                    long bytes = pass(how, ch, fd, arr, bb, rank, ranks, t, segs);
                    out[slot] = new long[]{s, epochNanos(), bytes};
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }));
        }
        ts.forEach(Thread::start);
        for (Thread th : ts) th.join();
        for (long[] o : out) System.out.println(o[0] + " " + o[1] + " " + o[2]);
    }

    static long pass(String how, FileChannel ch, int fd, byte[] arr, ByteBuffer bb, int rank, int ranks, int t, long segs) throws Exception {
        long bytes = 0;
        for (long i = 0; i < segs; i++) {
            long pos = (i * ranks + rank) * (long) t;
            bytes += how.equals("native") ? pread0(fd, arr, t, pos) : ch.read(bb.clear(), pos);
        }
        return bytes;
    }

    static long epochNanos() {
        Instant i = Instant.now();
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }
}
