package io.pdla.mpiio.programs;

import io.pdla.delegate.service.DelegateTransport;
import io.pdla.delegate.service.DelegateTransports;
import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A writable open's CLOSE round with the delegates happens only when a rank of the open needs it (the vote the
 * shim's close meeting carries), and consistency holds either way. Every request a rank sends the delegates is
 * counted through its transport. Run in one JVM (the shared transport, which knows which files the delegates
 * have open) with at least 2 ranks:
 * <ol>
 * <li>writable opens whose calls all bypass the delegates (write-only, then read-write with large writes and
 * reads) send them nothing, close included; the bytes are on storage after close;</li>
 * <li>rank 0 writes small pieces (through the delegates), the other ranks only large ones (straight to storage,
 * never reaching a delegate), no sync; close; reopen read-only; everyone reads everything, in small pieces (through
 * the delegates) and large ones;</li>
 * <li>a read-only open caches every page at the delegates (small reads by everyone); a second, writable, open
 * overwrites them straight on storage and closes: its ranks used no delegate, but the delegates cache pages they
 * overwrote, so the close reaches them; after a barrier and the first open's sync its small reads see the new
 * bytes.</li>
 * <li>with a witness interceptor whose last rank's closed hook is slow and whose rank 0 alone asks for the meeting after
 * the closed hooks, no rank leaves close before every rank's hook ran, and the delegates hear nothing;</li>
 * <li>a delete-on-close open writes through the delegates: after close the file is gone (the write-back came before
 * the delete).</li>
 * </ol>
 * Args: directory.
 */
public final class DelegateCloseVoteProgram {
    static final int PAGE = 4096, PAGES = 64, LARGE = 64 * 1024, SMALL = 1000;
    static final long SIZE = (long) PAGE * PAGES;

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path dir = Path.of(args[0]);
        int rank = MPI.COMM_WORLD.Rank(), np = MPI.COMM_WORLD.Size();
        AtomicLong sent = countRequests();
        Checks checks = new Checks();
        checks.check("a writable open that uses no delegate sends the delegates nothing", () -> {
            String name = dir.resolve("bypassing").toString();
            byte[] model = new byte[(int) SIZE];
            long before = sent.get();
            File f = new File(MPI.COMM_WORLD, name, MPIIO.MODE_CREATE | MPIIO.MODE_WRONLY, hints());
            for (long off = (long) rank * LARGE; off < SIZE; off += (long) np * LARGE) write(f, model, true, off, LARGE, 1);
            f.close();
            Checks.expectEquals(0, sent.get() - before, "requests to the delegates of a write-only open whose calls all bypassed them");
            f = new File(MPI.COMM_WORLD, name, MPIIO.MODE_RDWR, hints());
            for (long off = (long) rank * LARGE; off < SIZE; off += (long) np * LARGE) write(f, model, true, off, LARGE, 2);
            MPI.COMM_WORLD.Barrier();   // the others' writes are done; read-read-write ordering within one open
            for (long off = 0; off < SIZE; off += LARGE) fill(model, off, LARGE, 2);
            readAll(f, model, LARGE, "large reads in the same open");
            f.close();
            Checks.expectEquals(0, sent.get() - before, "requests to the delegates of a read-write open whose calls all bypassed them");
            MPI.COMM_WORLD.Barrier();
            f = new File(MPI.COMM_WORLD, name, MPIIO.MODE_RDONLY, hints());
            readAll(f, model, SMALL, "after close and reopen, small reads");
            f.close();
        });
        MPI.COMM_WORLD.Barrier();
        checks.check("one rank writes through the delegates, the others only bypass them; close, reopen, read", () -> {
            String name = dir.resolve("mixed").toString();
            byte[] model = new byte[(int) SIZE];
            File f = new File(MPI.COMM_WORLD, name, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, hints());
            for (int p = 0; p < PAGES / 2; p++) write(f, model, rank == 0, (long) p * PAGE + (p * 37L) % 3000, 300, 3);
            for (long off = SIZE / 2; off < SIZE; off += LARGE) write(f, model, rank == 1 + (int) ((off / LARGE) % (np - 1)), off, LARGE, 4);
            long before = sent.get();
            f.close();
            // rank 0 joined the delegates by writing: every rank's CLOSE must reach every delegate, or rank 0 would wait forever
            Checks.expect(sent.get() - before > 0, "rank " + rank + " sent no CLOSE although rank 0 used the delegates");
            MPI.COMM_WORLD.Barrier();
            f = new File(MPI.COMM_WORLD, name, MPIIO.MODE_RDONLY, hints());
            readAll(f, model, rank % 2 == 0 ? SMALL : LARGE, "after close and reopen");
            f.close();
        });
        MPI.COMM_WORLD.Barrier();
        checks.check("a close that used no delegate still has them forget the pages it overwrote for another open", () -> {
            String name = dir.resolve("overwritten").toString();
            byte[] model = new byte[(int) SIZE];
            File init = new File(MPI.COMM_WORLD, name, MPIIO.MODE_CREATE | MPIIO.MODE_WRONLY, hints());
            for (long off = (long) rank * LARGE; off < SIZE; off += (long) np * LARGE) write(init, model, true, off, LARGE, 5);
            init.close();
            for (long off = 0; off < SIZE; off += LARGE) fill(model, off, LARGE, 5);
            MPI.COMM_WORLD.Barrier();
            File reader = new File(MPI.COMM_WORLD, name, MPIIO.MODE_RDONLY, hints());
            readAll(reader, model, SMALL, "the reader's first pass");   // every page now cached at the delegates
            MPI.COMM_WORLD.Barrier();
            File writer = new File(MPI.COMM_WORLD, name, MPIIO.MODE_WRONLY, hints());
            long before = sent.get();
            for (long off = (long) rank * LARGE; off < SIZE; off += (long) np * LARGE) write(writer, model, true, off, LARGE, 6);
            Checks.expectEquals(0, sent.get() - before, "requests of the large writes (nothing of this rank's held at a delegate)");
            writer.close();
            Checks.expect(sent.get() - before > 0, "rank " + rank + "'s close did not reach the delegates that cache pages it overwrote");
            for (long off = 0; off < SIZE; off += LARGE) fill(model, off, LARGE, 6);
            MPI.COMM_WORLD.Barrier();
            reader.sync();
            readAll(reader, model, SMALL, "the reader after the writer's close, a barrier and its sync");
            reader.close();
        });
        MPI.COMM_WORLD.Barrier();
        checks.check("a writable open's delegated writes are on storage when the interceptors outside the delegates close", () -> {
            // what redirect needs at close: it ends its write session on the file's final identity in closed, so the
            // delegates' write-back must come before, not after
            String name = dir.resolve("witnessed").toString();
            byte[] model = new byte[(int) SIZE];
            Info info = hints();
            info.set("pdla_interceptors", "test-close-witness");
            File f = new File(MPI.COMM_WORLD, name, MPIIO.MODE_CREATE | MPIIO.MODE_RDWR, info);
            for (int p = 0; p < PAGES; p++) write(f, model, p % np == rank, (long) p * PAGE, SMALL, 7);   // small: through the delegates, no sync
            f.close();
            byte[] seen = CloseWitnessProvider.SEEN_WHEN_CLOSED.get("witnessed");
            Checks.expect(seen != null, "the witness interceptor did not run at close");
            for (int p = 0; p < PAGES; p++) {
                for (int i = 0; i < SMALL; i++) {
                    int at = p * PAGE + i;
                    if (at >= seen.length || seen[at] != model[at]) {
                        throw new AssertionError("rank " + rank + ": when its chain was told the file closed, the file on storage lacked byte " + at
                                + " written through the delegates (the delegates had not written back yet)");
                    }
                }
            }
        });
        MPI.COMM_WORLD.Barrier();
        checks.check("one rank's meetsAfterClosed keeps every rank in close until every rank's closed hooks ran, without a delegate round", () -> {
            String name = dir.resolve("marked").toString();
            Path marks = dir.resolve("marks");
            if (rank == 0) java.nio.file.Files.createDirectories(marks);
            MPI.COMM_WORLD.Barrier();
            byte[] model = new byte[(int) SIZE];
            Info info = hints();
            info.set("pdla_interceptors", "test-close-witness");
            info.set(CloseWitnessProvider.MARKS, marks.toString());
            File f = new File(MPI.COMM_WORLD, name, MPIIO.MODE_CREATE | MPIIO.MODE_WRONLY, info);
            for (long off = (long) rank * LARGE; off < SIZE; off += (long) np * LARGE) write(f, model, true, off, LARGE, 9);   // bypassing
            long before = sent.get();
            f.close();
            for (int r = 0; r < np; r++) {
                Checks.expect(java.nio.file.Files.exists(marks.resolve("closed-" + r)), "rank " + rank + " left close before rank " + r + "'s closed hook ran");
            }
            Checks.expectEquals(0, sent.get() - before, "requests to the delegates of a close whose only yes was meetsAfterClosed");
        });
        MPI.COMM_WORLD.Barrier();
        checks.check("a delete-on-close open's delegated writes are written back before the file is deleted, not after", () -> {
            // the write-back runs after the close meeting and rank 0 deletes after the next one: a delegate flushing
            // after the delete would create the file again
            Path path = dir.resolve("deleted");
            byte[] model = new byte[(int) SIZE];
            File f = new File(MPI.COMM_WORLD, path.toString(), MPIIO.MODE_CREATE | MPIIO.MODE_RDWR | MPIIO.MODE_DELETE_ON_CLOSE, hints());
            for (int p = 0; p < PAGES; p++) write(f, model, p % np == rank, (long) p * PAGE, SMALL, 8);   // through the delegates
            long before = sent.get();
            f.close();
            Checks.expect(sent.get() - before > 0, "rank " + rank + " sent no CLOSE although every rank used the delegates");
            MPI.COMM_WORLD.Barrier();
            Checks.expect(!java.nio.file.Files.exists(path), "the file exists after a delete-on-close close: " + path);
        });
        checks.done();
        MPI.Finalize();
    }

    /** Wraps this rank's transport so that every request it sends is counted. */
    private static AtomicLong countRequests() {
        DelegateTransport real = DelegateTransports.current();
        if (real == null) throw new IllegalStateException("run with delegates");
        AtomicLong sent = new AtomicLong();
        DelegateTransports.install(new DelegateTransport() {
            @Override
            public int delegates() {
                return real.delegates();
            }

            @Override
            public byte[][] exchange(int[] targets, byte[][] requests) throws IOException {
                sent.addAndGet(targets.length);
                return real.exchange(targets, requests);
            }

            @Override
            public boolean mayCache(String uri) {
                return real.mayCache(uri);
            }
        });
        return sent;
    }

    static Info hints() {
        Info info = new Info();
        info.set("pdla_delegate_page_size", String.valueOf(PAGE));
        info.set("pdla_delegate_direct_bytes", String.valueOf(4 * PAGE));   // LARGE calls bypass, SMALL ones do not
        return info;
    }

    static byte at(long off, int v) {
        return (byte) (off * 7 + (off >>> 12) * 3 + v * 29 + 1);
    }

    private static void fill(byte[] model, long off, int len, int v) {
        for (int i = 0; i < len; i++) model[(int) off + i] = at(off + i, v);
    }

    /** Every rank updates its model; only {@code mine} writes. */
    private static void write(File f, byte[] model, boolean mine, long off, int len, int v) throws Exception {
        fill(model, off, len, v);
        if (!mine) return;
        byte[] b = new byte[len];
        System.arraycopy(model, (int) off, b, 0, len);
        f.writeAt(off, b, 0, len, MPI.BYTE);
    }

    private static void readAll(File f, byte[] model, int step, String when) throws Exception {
        for (long off = 0; off < SIZE; off += step) {
            int len = (int) Math.min(step, SIZE - off);
            byte[] got = new byte[len];
            Checks.expectEquals(len, f.readAt(off, got, 0, len, MPI.BYTE).getBytes(), when + ": bytes read at " + off);
            for (int i = 0; i < len; i++) {
                if (got[i] != model[(int) off + i]) {
                    throw new AssertionError(when + ": byte " + (off + i) + " = " + got[i] + ", expected " + model[(int) off + i]);
                }
            }
        }
    }
}
