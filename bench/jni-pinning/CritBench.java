import java.nio.*; import java.nio.channels.*; import java.nio.file.*; import java.util.concurrent.*;
public class CritBench {
  static native int open0(String p); static native long crit(int fd, byte[] a, int len, long pos); static native long elems(int fd, byte[] a, int len, long pos);
  public static void main(String[] a) throws Exception {
    System.load(Path.of("libcrit.so").toAbsolutePath().toString());
    Path f = Path.of("data").toAbsolutePath(); long size = 64L << 20;
    if (!Files.exists(f) || Files.size(f) != size) { try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) { ByteBuffer b = ByteBuffer.allocate(1<<20); for (long o=0;o<size;o+=1<<20) ch.write(b.clear(), o);} }
    int fd = open0(f.toString()); FileChannel ch = FileChannel.open(f);
    int threads = Integer.parseInt(a[0]);
    for (int round = 0; round < 4; round++) for (int len : new int[]{16384, 262144, 1048576}) {
      StringBuilder sb = new StringBuilder("round " + round + " t=" + threads + " len=" + len);
      for (String m : new String[]{"critical", "elements", "channel"}) {
        long bytesTarget = 2L << 30; ExecutorService ex = Executors.newFixedThreadPool(threads); long t0 = System.nanoTime();
        java.util.List<Future<?>> fs = new java.util.ArrayList<>();
        for (int t = 0; t < threads; t++) fs.add(ex.submit(() -> { long c0 = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime(); byte[] arr = new byte[len]; ByteBuffer bb = ByteBuffer.wrap(arr); ThreadLocalRandom r = ThreadLocalRandom.current();
          for (long done = 0; done < bytesTarget / threads; done += len) { long pos = r.nextLong(size / len) * len;
            try { if (m.equals("critical")) crit(fd, arr, len, pos); else if (m.equals("elements")) elems(fd, arr, len, pos); else ch.read(bb.clear(), pos); } catch (Exception e) { throw new RuntimeException(e);} } return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - c0; }));
        long cpu = 0; for (Future<?> x : fs) cpu += (Long) x.get(); ex.shutdown();
        double s = (System.nanoTime() - t0) / 1e9;
        sb.append(String.format("  %s %.0f MB/s %.0f us-cpu/MB", m, bytesTarget / s / 1e6, cpu / 1e3 / (bytesTarget / 1e6)));
      }
      System.out.println(sb);
    }
  }
}
