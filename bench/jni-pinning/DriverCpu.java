import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import io.pdla.storage.posix.NativePosix;
import io.pdla.storage.posix.PosixDriver;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The POSIX driver's heap-array reads and writes, posix_native_io=true against false, in the threads' own CPU time
 * per MB (what other load on the machine disturbs least) and wall MB/s: one thread, a 64 MiB read-write file in the
 * page cache, 256 MiB per measurement, the two paths alternating, five rounds. Usage: java -cp core/target/classes:. DriverCpu DIR
 */
public class DriverCpu {
    public static void main(String[] args) throws Exception {
        if (!NativePosix.available()) throw new IllegalStateException(NativePosix.unavailableReason());
        Path f = Path.of(args[0]).resolve("driver-cpu.dat");
        long size = 64L << 20, perRun = 256L << 20;
        PosixDriver d = new PosixDriver();
        StorageFile nat = d.open(f.toUri(), OpenOptions.createReadWrite().withHints(Map.of(PosixDriver.HINT_NATIVE_IO, "true")));
        StorageFile ch = d.open(f.toUri(), OpenOptions.createReadWrite().withHints(Map.of(PosixDriver.HINT_NATIVE_IO, "false")));
        ByteBuffer fill = ByteBuffer.allocate(1 << 20);
        for (long at = 0; at < size; at += fill.capacity()) ch.write(at, fill.clear());
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int round = 0; round < 5; round++) {
            for (int len : new int[]{16384, 262144, 1048576}) {
                StringBuilder sb = new StringBuilder("round " + round + " len=" + len);
                for (String op : new String[]{"read", "write"}) {
                    for (StorageFile s : new StorageFile[]{nat, ch}) {
                        ByteBuffer b = ByteBuffer.allocate(len);
                        long c0 = mx.getCurrentThreadCpuTime(), t0 = System.nanoTime();
                        for (long done = 0; done < perRun; done += len) {
                            long pos = ThreadLocalRandom.current().nextLong(size / len) * len;
                            if (op.equals("read")) s.read(pos, b.clear());
                            else s.write(pos, b.clear());
                        }
                        double cpuUsPerMb = (mx.getCurrentThreadCpuTime() - c0) / 1e3 / (perRun / 1e6);
                        double mbs = perRun / 1e6 / ((System.nanoTime() - t0) / 1e9);
                        sb.append(String.format("  %s-%s %.0f us-cpu/MB %.0f MB/s", op, s == nat ? "native" : "channel", cpuUsPerMb, mbs));
                    }
                }
                System.out.println(sb);
            }
        }
        nat.close();
        ch.close();
        Files.delete(f);
    }
}
