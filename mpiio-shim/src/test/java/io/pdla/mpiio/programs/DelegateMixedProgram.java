package io.pdla.mpiio.programs;

import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.nio.file.Path;

/**
 * Ranks that go through the delegates and ranks that only bypass them, on one file: rank 0 writes small pieces
 * (through the delegates), rank 1 only makes large calls (straight to storage: it never joins a delegate), ranks
 * 2.. only read small pieces (they join the delegates by reading, and load pages into their caches). Checked
 * against a model on every rank:
 * <ol>
 * <li>rank 0's small pieces and rank 1's large writes; sync-barrier-sync; everyone reads everything;</li>
 * <li>rank 1 overwrites, straight on storage, pages the delegates now cache (loaded by the small reads);
 * sync-barrier-sync; everyone reads them again: no delegate may serve its older copy;</li>
 * <li>both write again; close; barrier; reopen; everyone reads everything;</li>
 * <li>a read-only open read by everyone (rank 1 never reaching a delegate), closed; a writable open in which both
 * write over pages the read-only one cached; a read-only reopen reads everything.</li>
 * </ol>
 * Small reads read 1000-byte pieces, large ones 64 KiB. Args: directory, trials.
 */
public final class DelegateMixedProgram {
    static final int PAGE = 4096, PAGES = 96, LARGE = 64 * 1024, SMALL_READ = 1000;
    static final long SIZE = (long) PAGE * PAGES;

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path dir = Path.of(args[0]);
        int trials = Integer.parseInt(args[1]);
        int rank = MPI.COMM_WORLD.Rank();
        Checks checks = new Checks();
        for (int t = 0; t < trials; t++) {
            final int trial = t;
            checks.check("mixed trial " + t, () -> run(dir.resolve("mixed-" + trial).toString(), rank, trial));
        }
        checks.done();
        MPI.Finalize();
    }

    /** Version v of the byte at {@code off}. */
    static byte at(long off, int v) {
        return (byte) (off * 13 + (off >>> 10) * 5 + v * 71 + 3);
    }

    static Info hints() {
        Info info = new Info();
        info.set("pdla_delegate_page_size", String.valueOf(PAGE));
        info.set("pdla_delegate_direct_bytes", String.valueOf(4 * PAGE));   // the large calls bypass, the small ones do not
        return info;
    }

    private static void run(String name, int rank, int trial) throws Exception {
        byte[] model = new byte[(int) SIZE];
        File f = new File(MPI.COMM_WORLD, name, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, hints());
        // 1: rank 0's pieces at the start of pages 0..47 (through delegates); rank 1's large writes over pages 48..95
        for (int p = 0; p < PAGES / 2; p++) piece(f, model, rank == 0, (long) p * PAGE + (p * 37L) % 3000, 200, 1);
        for (long off = SIZE / 2; off < SIZE; off += LARGE) large(f, model, rank == 1, off, 1);
        f.sync();
        MPI.COMM_WORLD.Barrier();
        f.sync();
        check(f, model, rank, "after the first sync");
        MPI.COMM_WORLD.Barrier();   // nobody overwrites what another rank still reads
        // 2: rank 1 overwrites pages 0..47 on storage, which the small reads above loaded into the delegates
        for (long off = 0; off < SIZE / 2; off += LARGE) large(f, model, rank == 1, off, 2);
        f.sync();
        MPI.COMM_WORLD.Barrier();
        f.sync();
        check(f, model, rank, "after rank 1 overwrote cached pages on storage and synced");
        MPI.COMM_WORLD.Barrier();
        // 3: both again, on different bytes (concurrent writes of the same bytes are undefined in MPI), then close and reopen
        for (int p = 0; p < PAGES - LARGE / PAGE; p += 3) piece(f, model, rank == 0, (long) p * PAGE + 1000, 300, 3);
        large(f, model, rank == 1, SIZE - LARGE, 4);
        f.close();
        MPI.COMM_WORLD.Barrier();
        f = new File(MPI.COMM_WORLD, name, MPIIO.MODE_RDWR, hints());
        check(f, model, rank, "after close and reopen");
        f.close();
        MPI.COMM_WORLD.Barrier();
        // 4: a read-only open in which rank 1 never reaches a delegate (the delegates keep its group's pages for it),
        // then a writable open changes those pages, then a read-only reopen must see the change
        f = new File(MPI.COMM_WORLD, name, MPIIO.MODE_RDONLY, hints());
        check(f, model, rank, "read-only");
        f.close();
        MPI.COMM_WORLD.Barrier();
        f = new File(MPI.COMM_WORLD, name, MPIIO.MODE_RDWR, hints());
        for (int p = 0; p < PAGES / 2; p += 2) piece(f, model, rank == 0, (long) p * PAGE + 50, 100, 5);
        large(f, model, rank == 1, SIZE / 2, 6);
        f.close();
        MPI.COMM_WORLD.Barrier();
        f = new File(MPI.COMM_WORLD, name, MPIIO.MODE_RDONLY, hints());
        check(f, model, rank, "read-only reopen after a writable open changed pages cached for a read-only one");
        f.close();
    }

    /** Every rank updates its model; only {@code mine} writes. */
    private static void piece(File f, byte[] model, boolean mine, long off, int len, int v) throws Exception {
        byte[] b = new byte[len];
        for (int i = 0; i < len; i++) model[(int) off + i] = b[i] = at(off + i, v);
        if (mine) f.writeAt(off, b, 0, len, MPI.BYTE);
    }

    private static void large(File f, byte[] model, boolean mine, long off, int v) throws Exception {
        piece(f, model, mine, off, LARGE, v);
    }

    /** Rank 1 reads everything in large calls (straight to storage), every other rank in small pieces (through the delegates). */
    private static void check(File f, byte[] model, int rank, String when) throws Exception {
        int step = rank == 1 ? LARGE : SMALL_READ;
        for (long off = 0; off < SIZE; off += step) {
            int len = (int) Math.min(step, SIZE - off);
            byte[] got = new byte[len];
            long n = f.readAt(off, got, 0, len, MPI.BYTE).getBytes();
            Checks.expectEquals(len, n, when + ": bytes read at " + off);
            for (int i = 0; i < len; i++) {
                if (got[i] != model[(int) off + i]) {
                    throw new AssertionError(when + ": rank " + rank + " read byte " + (off + i) + " = " + got[i] + ", expected " + model[(int) off + i]);
                }
            }
        }
    }
}
