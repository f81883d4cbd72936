package io.pdla.redirect;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Child JVM of {@link KilledRankTest}: one application rank writing through redirect, block after block (inside
 * its replicated pattern and, every third, in the gap next to it), writing {@code BEGIN <offset> <length> <seed>} to
 * its protocol file before each write starts and {@code ACK <offset> <length> <seed>} once it has returned, until it
 * is killed: the test reads which write was in flight from these lines ({@link KilledRankLog}). A file, not standard
 * output: {@code Process.destroyForcibly} closes the parent's end of the child's pipes, so lines the test's reader had
 * not yet taken were lost, the in-flight write's BEGIN among them under load, and that write's offset was then checked
 * as an acknowledged earlier one (one soak round in ten to fifteen). Each line is one unbuffered {@code write(2)}, in
 * the page cache once it returns, whatever kills the process after. Args: CATALOG FILE BLOCK STRIDE COUNT ROUND PROTOCOL.
 */
public final class WritingRank {
    public static void main(String[] args) throws Exception {
        Path catalog = Path.of(args[0]);
        Path file = Path.of(args[1]);
        int block = Integer.parseInt(args[2]), stride = Integer.parseInt(args[3]), count = Integer.parseInt(args[4]);
        long round = Long.parseLong(args[5]);
        java.io.FileOutputStream protocol = new java.io.FileOutputStream(args[6]);   // unbuffered: one write(2) a line
        RedirectInterceptor r = new RedirectInterceptor(RedirectConfig.from(Map.of()).withCatalog(catalog));
        try (ChainFile f = new ChainFile(file.toUri(), "app", 1, 0, Map.of(), List.of(r), false)) {
            for (int i = 0; ; i = (i + 1) % count) {
                long off = (long) i * stride + (i % 3 == 2 ? block : 0);   // every third write in the gap
                long seed = round * 1_000_000L + System.nanoTime() % 1_000_000L;
                byte[] data = new byte[block];
                new Random(seed).nextBytes(data);
                protocol.write(("BEGIN " + off + " " + block + " " + seed + "\n").getBytes());
                f.write(off, data);
                protocol.write(("ACK " + off + " " + block + " " + seed + "\n").getBytes());
                Thread.sleep(2);
            }
        }
    }
}
