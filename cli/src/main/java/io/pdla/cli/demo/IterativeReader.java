package io.pdla.cli.demo;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An iterative reader, the shape online PDLA is for: every pass opens the file, each rank reads its 16 KiB-style
 * blocks in IOR's strided shape (in segment s, rank r owns block s * np + r), and closes it, as a solver re-reading
 * its input or a training loop's epochs do; with {@code keep-open}, the file is opened once before the first pass and
 * closed after the last, and each pass is a sweep of the same reads through that one handle, as a training loop over a
 * fixed sharded file or a solver holding its input open does. Every pass's bytes are verified after its clock stops.
 *
 * <p>Arguments: file, block size, segments, passes, then options: {@code create} (the ranks first write the file,
 * generation 0), {@code direct} (hint {@code posix_direct_io=true}, aligned direct buffers), {@code pause=MS}
 * (compute time between passes), {@code write-before=K} (before pass K the ranks rewrite their blocks through pdla,
 * the next generation), {@code outside-before=K} (before pass K rank 0 rewrites the whole file outside pdla, plain
 * FileChannel, the next generation), {@code until-served[=EVENTS]} (for tests on a loaded machine: after the first pass
 * that replicas served whole on every rank, each letter of EVENTS, {@code w} a rewrite through pdla, {@code o} one
 * outside it, {@code p} nothing, followed by one more pass, then stop; passes is the most to run before that),
 * {@code record=SESSION} (a {@code simpfs:} file: every handle a pass opens, the original's and the replicas' redirect
 * opens with the pass's hints, records its requests as this rank's stream of sim-pfs session {@code SESSION-pass-P},
 * so that each pass can be replayed on sim-pfs's timing engine by itself), {@code keep-open} (one open for every
 * pass, see above: online PDLA then sees each pass as a sweep that starts over within the open, and replicas can serve
 * a pass only where redirect switches to them within an open). With {@code keep-open}, {@code write-before=},
 * {@code outside-before=}, {@code record=} and the letters {@code w} and {@code o} of {@code until-served=} are refused,
 * naming the conflict: a rewrite between passes would happen under the open read-only handle (a rewrite through pdla
 * needs a writable open, which online PDLA does not watch; one outside pdla under an open handle is beyond MPI-IO's
 * consistency, and no open would come after it to check the original), and {@code record=} gives each pass's handles
 * their own sim-pfs session, which one handle cannot; {@code until-served} alone (or with {@code p}) keeps working.
 * Prints per pass {@code PASSTIME pass P seconds=T} (rank 0, barrier to barrier, open and close included; with
 * {@code keep-open} the reads only, the open before the first pass's clock and the close after the last's, printed
 * apart as {@code KEEPOPEN open seconds=T1 close seconds=T2}) and {@code SERVED rank R pass P fromReplica=A mixed=B
 * fromOriginal=C}; at the end {@code ONLINE rank R ...}, online PDLA's counters. Fails if any byte differs.
 */
public final class IterativeReader {
    private static final int ALIGN = 4096;

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        IterativeReader r = new IterativeReader(args, MPI.COMM_WORLD.Rank(), MPI.COMM_WORLD.Size());
        r.run();
        MPI.Finalize();
    }

    private final String name;
    private final int rank, np, block, segments, passes;
    private boolean create, direct, keepOpen;
    private long pause;
    private int writeBefore = -1, outsideBefore = -1;
    private String untilServed;   // null: run every pass
    private String record;        // null: no sim-pfs recording
    private final Info info = new Info();
    private File kept;            // keep-open: the one handle of every pass
    private long openNanos;
    private int generation;
    private ByteBuffer all;
    private long[] before;

    private IterativeReader(String[] args, int rank, int np) throws Exception {
        this.rank = rank;
        this.np = np;
        name = args[0];
        block = Integer.parseInt(args[1]);
        segments = Integer.parseInt(args[2]);
        passes = Integer.parseInt(args[3]);
        for (int i = 4; i < args.length; i++) {
            String a = args[i];
            if (a.equals("create")) create = true;
            else if (a.equals("direct")) direct = true;
            else if (a.startsWith("pause=")) pause = Long.parseLong(a.substring(6));
            else if (a.startsWith("write-before=")) writeBefore = Integer.parseInt(a.substring(13));
            else if (a.startsWith("outside-before=")) outsideBefore = Integer.parseInt(a.substring(15));
            else if (a.equals("until-served")) untilServed = "";
            else if (a.startsWith("until-served=")) untilServed = a.substring(13);
            else if (a.startsWith("record=")) record = a.substring(7);
            else if (a.equals("keep-open")) keepOpen = true;
            else throw new IllegalArgumentException("IterativeReader: unknown option '" + a + "'");
        }
        if (untilServed != null && !untilServed.matches("[wop]*")) {
            throw new IllegalArgumentException("IterativeReader: until-served= takes letters w, o, p, was '" + untilServed + "'");
        }
        String conflict = keepOpenConflict(keepOpen, writeBefore, outsideBefore, untilServed, record);
        if (conflict != null) throw new IllegalArgumentException(conflict);
        if (direct) info.set("posix_direct_io", "true");
    }

    /**
     * Why the options cannot go with {@code keep-open} (see the class comment), naming the options in conflict; null
     * when they can (or without {@code keep-open}).
     */
    public static String keepOpenConflict(boolean keepOpen, int writeBefore, int outsideBefore, String untilServed, String record) {
        if (!keepOpen) return null;
        if (writeBefore >= 0) {
            return "IterativeReader: keep-open and write-before=" + writeBefore + " conflict: the ranks' rewrite through pdla would"
                    + " need the file open for writing, and keep-open holds it open read-only over every pass";
        }
        if (outsideBefore >= 0) {
            return "IterativeReader: keep-open and outside-before=" + outsideBefore + " conflict: a rewrite outside pdla under the"
                    + " kept-open handle is beyond MPI-IO's consistency, and no later open would check the original";
        }
        if (untilServed != null && !untilServed.matches("p*")) {
            return "IterativeReader: keep-open and until-served=" + untilServed + " conflict: its w and o rewrite the file between"
                    + " passes, which keep-open refuses as it does write-before= and outside-before= (until-served alone, or with p, works)";
        }
        if (record != null) {
            return "IterativeReader: keep-open and record=" + record + " conflict: record= gives each pass's handles their own"
                    + " sim-pfs session, and keep-open has one handle for every pass";
        }
        return null;
    }

    private void run() throws Exception {
        if (create) writeBlocks(true);
        all = direct ? alignedDirect(block * segments) : ByteBuffer.allocate(block * segments);
        before = served();
        if (keepOpen) {
            MPI.COMM_WORLD.Barrier();
            long t0 = System.nanoTime();
            kept = new File(MPI.COMM_WORLD, name, MPIIO.MODE_RDONLY, info);
            MPI.COMM_WORLD.Barrier();
            openNanos = System.nanoTime() - t0;
        }
        int ran = 0;
        for (int p = 1; p <= passes; p++) {
            if (p == writeBefore) change('w');
            if (p == outsideBefore) change('o');
            boolean whole = pass(p);
            ran = p;
            if (untilServed != null && everyRank(whole)) {
                // then the changes the test asked for, each followed by one more verified pass
                for (char c : untilServed.toCharArray()) {
                    if (pause > 0) Thread.sleep(pause);
                    change(c);
                    pass(++ran);
                }
                break;
            }
            if (pause > 0 && p < passes) Thread.sleep(pause);
        }
        if (keepOpen) {
            MPI.COMM_WORLD.Barrier();
            long t0 = System.nanoTime();
            kept.close();
            MPI.COMM_WORLD.Barrier();
            if (rank == 0) System.out.printf("KEEPOPEN open seconds=%.6f close seconds=%.6f%n", openNanos / 1e9, (System.nanoTime() - t0) / 1e9);
        }
        System.out.println("VERIFIED rank " + rank + " passes=" + ran + " bytesPerPass=" + (long) block * segments);
        System.out.println("ONLINE rank " + rank + " " + io.pdla.patterns.online.OnlineStats.global());
        System.out.println("REDIRECT rank " + rank + " " + io.pdla.redirect.RedirectStats.global());
    }

    /** 'w': the ranks rewrite their blocks through pdla; 'o': rank 0 rewrites the file outside pdla; 'p': nothing. */
    private void change(char c) throws Exception {
        if (c == 'p') return;
        generation++;
        if (c == 'w') writeBlocks(false);
        else if (rank == 0) writeOutside(Path.of(name), (long) block * segments * np, generation);
    }

    /**
     * One timed pass (open, reads, close; with keep-open the reads through the kept handle), verified after the clock
     * stopped; whether replicas served it whole.
     */
    private boolean pass(int p) throws Exception {
        MPI.COMM_WORLD.Barrier();
        long t0 = System.nanoTime();
        File f = keepOpen ? kept : new File(MPI.COMM_WORLD, name, MPIIO.MODE_RDONLY, passInfo(p));
        for (int s = 0; s < segments; s++) {
            ByteBuffer slice = all.slice(s * block, block);
            f.readAt(offset(s, rank, np, block), slice);
            if (slice.hasRemaining()) throw new IllegalStateException("rank " + rank + " pass " + p + ": short read at " + offset(s, rank, np, block));
        }
        if (!keepOpen) f.close();
        MPI.COMM_WORLD.Barrier();
        long t1 = System.nanoTime();
        for (int s = 0; s < segments; s++) {
            long off = offset(s, rank, np, block);
            for (int i = 0; i < block; i++) {
                if (all.get(s * block + i) != value(off + i, generation)) {
                    throw new IllegalStateException("rank " + rank + " pass " + p + ": byte " + (off + i) + " differs from generation " + generation);
                }
            }
        }
        long[] now = served();
        if (rank == 0) System.out.printf("PASSTIME pass %d seconds=%.6f%n", p, (t1 - t0) / 1e9);
        System.out.printf("SERVED rank %d pass %d fromReplica=%d mixed=%d fromOriginal=%d%n", rank, p,
                now[0] - before[0], now[1] - before[1], now[2] - before[2]);
        boolean whole = now[0] - before[0] == segments && now[1] == before[1] && now[2] == before[2];
        before = now;
        return whole;
    }

    /** The pass's hints: with {@code record=}, the sim-pfs stream this pass's handles append to (the driver's hints). */
    private Info passInfo(int p) {
        if (record == null) return info;
        return info.dup().set("simpfs_rank", Integer.toString(rank)).set("simpfs_session", SimPassTimes.passSession(record, p));
    }

    private static boolean everyRank(boolean mine) throws Exception {
        int[] in = {mine ? 1 : 0}, out = new int[1];
        MPI.COMM_WORLD.Allreduce(in, 0, out, 0, 1, MPI.INT, MPI.MIN);
        return out[0] == 1;
    }

    static long offset(int segment, int rank, int np, int block) {
        return ((long) segment * np + rank) * block;
    }

    /** The file's content: a function of the offset and the generation, so a stale or misplaced byte differs. */
    public static byte value(long off, int generation) {
        return (byte) (off + (off >>> 8) + generation * 101);
    }

    /** Every rank writes its own blocks of the current generation through pdla (redirect sees the writes). */
    private void writeBlocks(boolean create) throws Exception {
        File f = new File(MPI.COMM_WORLD, name, create ? MPIIO.MODE_RDWR | MPIIO.MODE_CREATE : MPIIO.MODE_RDWR, info);
        ByteBuffer buf = direct ? alignedDirect(block) : ByteBuffer.allocate(block);
        for (int s = 0; s < segments; s++) {
            long off = offset(s, rank, np, block);
            buf.clear();
            for (int i = 0; i < block; i++) buf.put(i, value(off + i, generation));
            f.writeAt(off, buf);
        }
        f.sync();
        f.close();
    }

    /**
     * A direct buffer of exactly {@code size} bytes that starts on a 4 KiB boundary, as O_DIRECT needs. {@code alignedSlice}
     * keeps every aligned byte of the allocation, {@code size + ALIGN} of them when the allocation starts on a page (74 of
     * 20,000 allocations of 20 KiB in a loop), and a {@code limit(size)} on it is undone by the first {@code clear()}: the
     * create job's writes then carried 4 KiB of zeros over the start of the next rank's block (the wrong byte of
     * bench/RESULTS-online.md, session 17). Cut to its size, a buffer's capacity is what a write may take. The
     * allocation is rounded up to whole pages first: {@code alignedSlice} also ends on a page, so a size that is not a
     * multiple of 4 KiB (blocks of 6 KiB, whose requests O_DIRECT cannot take and the driver sends through the page
     * cache) could otherwise be left fewer bytes than it asked for.
     */
    static ByteBuffer alignedDirect(int size) {
        long pages = ((long) size + ALIGN - 1) / ALIGN;
        if (size < 0 || (pages + 1) * ALIGN > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a direct buffer of " + size + " bytes: must be 0 to 2 GiB less two pages (a rank's pass holds block x segments)");
        }
        return ByteBuffer.allocateDirect((int) ((pages + 1) * ALIGN)).alignedSlice(ALIGN).slice(0, size);
    }

    /** A change outside pdla: the whole file rewritten by a plain FileChannel, forced to disk. */
    private static void writeOutside(Path file, long size, int generation) throws Exception {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1 << 20);
            for (long off = 0; off < size; off += b.capacity()) {
                b.clear();
                int n = (int) Math.min(b.capacity(), size - off);
                for (int i = 0; i < n; i++) b.put(i, value(off + i, generation));
                b.limit(n);
                while (b.hasRemaining()) ch.write(b, off + b.position());
            }
            ch.force(true);
        }
    }

    /** This rank's redirect counters: reads served by replicas, partly, by originals (zeros without redirect). */
    private static long[] served() {
        io.pdla.redirect.RedirectStats st = io.pdla.redirect.RedirectStats.global();
        return new long[]{st.readsFromReplica.get(), st.readsMixed.get(), st.readsFromOriginal.get()};
    }
}
