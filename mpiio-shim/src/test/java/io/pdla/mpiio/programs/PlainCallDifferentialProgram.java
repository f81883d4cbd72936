package io.pdla.mpiio.programs;

import io.pdla.intercept.Interceptors;
import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.IoStatus;
import io.pdla.mpiio.MPIIO;
import mpi.Datatype;
import mpi.MPI;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import static io.pdla.mpiio.programs.Checks.expect;
import static io.pdla.mpiio.programs.Checks.expectBytes;

/**
 * The everyday independent call's straight path against the general one: every rank runs the same random sequence
 * of calls on four files of its own (on MPI.COMM_SELF): one with a bare interceptor chain (its byte-array calls may
 * go straight to the store), one with a pass-through interceptor (they may go straight through the chain), one with
 * an interceptor that only watches (they may go straight, and it is told afterwards), and one with the watcher and
 * hint {@code pdla_straight_calls=false} (every call takes the general path), and checks that each call ends the same
 * way on all four, and that the watcher heard the same calls of the straight handle as of the general one: bytes and count moved, the bytes a read brought (the whole array), the
 * individual pointer, the error class of a failing call. The calls mix what the straight path takes (byte arrays,
 * plain types, plain views, both positionings) with what it must leave to the general path (other types and arrays,
 * non-contiguous and external32 views, etypes a call is not a multiple of, atomic mode, read-only, write-only and
 * sequential handles, a closed handle, bad counts, offsets and buffer offsets, reads past the end). At the end
 * the four files hold the same bytes. Arguments: a directory, a seed, a number of calls, and "posix" or "failfs": the
 * latter puts the files on the test driver, which counts the calls that reach it as one array request, so the
 * program also checks that the straight path served a fair share of the calls and the general path none.
 */
public final class PlainCallDifferentialProgram {
    private static final int MAX_FILE = 1 << 16;
    /** Data calls all handles answered, and those the store saw as one array request (counted on the test driver). */
    private static int answered, straight, bufferCalls, bufferStraight;

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Path dir = Path.of(args[0]);
        long seed = Long.parseLong(args[1]);
        int calls = Integer.parseInt(args[2]);
        boolean counted = args[3].equals("failfs");
        Checks c = new Checks();
        int rank = c.rank();
        c.check("straight and general paths end every call the same way (seed " + seed + ")", () -> {
            Random rnd = new Random(seed + rank);
            Path plainPath = dir.resolve("plain-" + rank), generalPath = dir.resolve("general-" + rank);
            Datatype[] types = {MPI.BYTE, MPI.BYTE, Datatype.Contiguous(4, MPI.BYTE), Datatype.Contiguous(3, MPI.BYTE),
                    Datatype.Vector(2, 3, 5, MPI.BYTE), MPI.INT};
            Pair files = Pair.open(plainPath, generalPath, MPIIO.MODE_RDWR | MPIIO.MODE_CREATE, false, counted);
            byte[] initial = new byte[MAX_FILE];   // so that most reads find data
            rnd.nextBytes(initial);
            files.same("fill", h -> "ok bytes " + h.writeAt(0, initial, 0, MAX_FILE, MPI.BYTE).getBytes());
            int[] modes = {MPIIO.MODE_RDWR, MPIIO.MODE_RDWR, MPIIO.MODE_RDWR, MPIIO.MODE_RDWR, MPIIO.MODE_RDWR, MPIIO.MODE_RDWR,
                    MPIIO.MODE_RDONLY, MPIIO.MODE_WRONLY, MPIIO.MODE_RDONLY | MPIIO.MODE_SEQUENTIAL};
            int closedFor = 0;
            for (int i = 0; i < calls; i++) {
                int kind = rnd.nextInt(100);
                String step = "call " + i;
                if (kind < 2 || (files.closed && --closedFor <= 0)) {
                    files.close();
                    files = Pair.open(plainPath, generalPath, modes[rnd.nextInt(modes.length)], rnd.nextInt(6) == 0, counted);
                    continue;
                }
                if (kind < 3) {
                    files.close(); // calls on a closed handle fail alike until the next reopen, a few calls later
                    closedFor = 1 + rnd.nextInt(4);
                    continue;
                }
                if (kind < 12) {
                    View v = View.random(rnd);
                    files.same(step + " setView " + v, h -> v.install(h));
                    continue;
                }
                if (kind < 15) {
                    boolean atomic = rnd.nextBoolean();
                    files.same(step + " setAtomicity " + atomic, h -> {
                        h.setAtomicity(atomic);
                        return "ok";
                    });
                    continue;
                }
                if (kind < 20) {
                    long off = rnd.nextInt(4) == 0 ? -rnd.nextInt(3) : rnd.nextInt(MAX_FILE);
                    int whence = new int[]{MPIIO.SEEK_SET, MPIIO.SEEK_CUR, MPIIO.SEEK_END}[rnd.nextInt(3)];
                    files.same(step + " seek " + off + " " + whence, h -> {
                        h.seek(off, whence);
                        return "ok at " + h.getPosition();
                    });
                    continue;
                }
                if (kind < 32) {
                    // a ByteBuffer call: a heap buffer (a slice, so its array offset is not 0), a read-only one, or a direct one
                    boolean write = rnd.nextBoolean();
                    int length = rnd.nextInt(20) == 0 ? 0 : 1 + rnd.nextInt(3000), skip = rnd.nextInt(64), at = rnd.nextInt(Math.max(1, length / 4 + 1));
                    int form = rnd.nextInt(6);   // 0-3 heap, 4 read-only heap, 5 direct
                    long offset = rnd.nextInt(30) == 0 ? -1 : rnd.nextInt(MAX_FILE - 4096);
                    byte[] data = new byte[skip + length];
                    rnd.nextBytes(data);
                    String what = step + (write ? " writeAt " : " readAt ") + offset + " ByteBuffer form " + form + " of " + length + " from " + at;
                    int straightBefore = straight;
                    files.same(what, h -> {
                        ByteBuffer b = ByteBuffer.wrap(data.clone()).position(skip).slice();
                        if (form == 4) b = b.asReadOnlyBuffer();
                        if (form == 5) b = ByteBuffer.allocateDirect(length).put(data, skip, length).clear();
                        b.position(Math.min(at, length));
                        IoStatus s = write ? h.writeAt(offset, b) : h.readAt(offset, b);
                        byte[] contents = new byte[length];
                        b.duplicate().clear().get(contents);
                        return "ok bytes " + s.getBytes() + " count " + s.getCount() + " pointer " + h.getPosition() + " position " + b.position()
                                + (write ? "" : " buffer " + Arrays.hashCode(contents));
                    });
                    if (form < 4) bufferCalls++;
                    if (straight > straightBefore) bufferStraight++;
                    continue;
                }
                boolean write = rnd.nextBoolean(), explicit = rnd.nextBoolean();
                Datatype type = types[rnd.nextInt(types.length)];
                boolean ints = type == MPI.INT ? rnd.nextInt(4) != 0 : rnd.nextInt(20) == 0;
                int length = 1 + rnd.nextInt(3000);
                int count = rnd.nextInt(25) == 0 ? -1 - rnd.nextInt(2) : rnd.nextInt(length / 16 + 2);
                int bufOffset = rnd.nextInt(25) == 0 ? length + rnd.nextInt(3) : rnd.nextInt(Math.max(1, length / 4));
                long offset = rnd.nextInt(30) == 0 ? -1 : rnd.nextInt(MAX_FILE - 4096);
                byte[] data = new byte[length];
                rnd.nextBytes(data);
                int[] intData = new int[length];
                for (int k = 0; k < length; k++) intData[k] = rnd.nextInt();
                String what = step + (write ? " write" : " read") + (explicit ? "At " + offset : "") + " count " + count
                        + " bufOffset " + bufOffset + " of " + length + (ints ? " ints" : " bytes") + " type " + typeName(type, types);
                files.same(what, h -> {
                    Object buf = ints ? intData.clone() : data.clone();
                    IoStatus s;
                    if (write) s = explicit ? h.writeAt(offset, buf, bufOffset, count, type) : h.write(buf, bufOffset, count, type);
                    else s = explicit ? h.readAt(offset, buf, bufOffset, count, type) : h.read(buf, bufOffset, count, type);
                    String contents = ints ? Arrays.toString((int[]) buf) : Arrays.toString((byte[]) buf);
                    return "ok bytes " + s.getBytes() + " count " + s.getCount() + " pointer " + h.getPosition()
                            + (write ? "" : " buffer " + contents.hashCode() + "/" + contents.length());
                });
            }
            files.close();
            expectBytes(Files.readAllBytes(generalPath), Files.readAllBytes(plainPath), "the straight file and the general one at the end");
            for (String kind : new String[]{"chained", "observed"}) {
                expectBytes(Files.readAllBytes(generalPath), Files.readAllBytes(sibling(plainPath, kind)), "the " + kind + " file and the general one at the end");
            }
            java.util.List<String> watchedStraight = ObserverInterceptorProvider.HEARD.getOrDefault(sibling(plainPath, "observed").getFileName().toString(), java.util.List.of());
            java.util.List<String> watchedGeneral = ObserverInterceptorProvider.HEARD.getOrDefault(generalPath.getFileName().toString(), java.util.List.of());
            expect(watchedStraight.equals(watchedGeneral), "the watcher heard " + watchedStraight.size() + " calls of the straight handle and "
                    + watchedGeneral.size() + " of the general one; first difference at " + firstDifference(watchedStraight, watchedGeneral));
            expect(watchedGeneral.size() >= answered / 2, "the watcher heard only " + watchedGeneral.size() + " of " + answered + " answered calls");
            System.out.println("CALLS " + rank + " " + answered + " data calls answered of " + calls + ", " + straight + " straight; "
                    + bufferStraight + " of " + bufferCalls + " heap ByteBuffer calls straight");
            if (counted) expect(straight >= answered / 10 && straight > 20, straight + " of " + answered
                    + " answered data calls reached the store as one array request: the straight path is not being taken");
            if (counted) expect(bufferStraight > 0 && bufferStraight <= bufferCalls, bufferStraight + " of " + bufferCalls
                    + " heap ByteBuffer calls reached the store as one array request (and only heap ones may)");
        });
        c.done();
        MPI.Finalize();
    }

    private static Path sibling(Path plain, String kind) {
        return plain.resolveSibling(plain.getFileName() + "-" + kind);
    }

    private static String firstDifference(java.util.List<String> a, java.util.List<String> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) if (!a.get(i).equals(b.get(i))) return i + ": " + a.get(i) + " / " + b.get(i);
        return "the end of the shorter";
    }

    private static String typeName(Datatype t, Datatype[] types) {
        String[] names = {"BYTE", "BYTE", "contiguous(4)", "contiguous(3)", "vector(2,3,5)", "INT"};
        for (int i = 0; i < types.length; i++) if (types[i] == t) return names[i];
        return "?";
    }

    /**
     * The same calls on four files: straight to the store (a bare chain), straight through the chain (a pass-through
     * interceptor), straight and then told to a watcher (an interceptor that only observes), and the general path
     * (the watcher, and the straight path turned off by its hint).
     */
    private static final class Pair {
        final File plain, chained, observed, general;
        boolean closed;

        private Pair(File plain, File chained, File observed, File general) {
            this.plain = plain;
            this.chained = chained;
            this.observed = observed;
            this.general = general;
        }

        static Pair open(Path plainPath, Path generalPath, int amode, boolean directIo, boolean counted) throws Exception {
            Info bare = new Info(), through = new Info().set(Interceptors.HINT, PassThroughInterceptorProvider.NAME);
            Info watched = new Info().set(Interceptors.HINT, ObserverInterceptorProvider.NAME);
            Info forced = watched.dup().set("pdla_straight_calls", "false");
            for (Info i : new Info[]{bare, through, watched, forced}) if (directIo) i.set("posix_direct_io", "true");
            boolean create = (amode & (MPIIO.MODE_RDONLY)) == 0;
            int mode = create ? amode | MPIIO.MODE_CREATE : amode;
            String scheme = counted ? "failfs://" : "";
            return new Pair(new File(MPI.COMM_SELF, scheme + plainPath, mode, bare), new File(MPI.COMM_SELF, scheme + sibling(plainPath, "chained"), mode, through),
                    new File(MPI.COMM_SELF, scheme + sibling(plainPath, "observed"), mode, watched), new File(MPI.COMM_SELF, scheme + generalPath, mode, forced));
        }

        void same(String what, CallOutcome.Call call) {
            long before = FailingStorageDriver.ARRAY_CALLS.get();
            String a = CallOutcome.of(plain, call);
            long between = FailingStorageDriver.ARRAY_CALLS.get();
            String b = CallOutcome.of(chained, call);
            expect(FailingStorageDriver.ARRAY_CALLS.get() == between, what + ": a handle with an interceptor that does not only watch made an array request of the store");
            String o = CallOutcome.of(observed, call);
            long afterObserved = FailingStorageDriver.ARRAY_CALLS.get();
            String c = CallOutcome.of(general, call);
            expect(FailingStorageDriver.ARRAY_CALLS.get() == afterObserved, what + ": the general path made an array request of the store");
            expect(a.equals(c), what + ": straight to the store " + a + ", general path " + c);
            expect(b.equals(c), what + ": straight through the chain " + b + ", general path " + c);
            expect(o.equals(c), what + ": straight and observed " + o + ", general path " + c);
            if (a.startsWith("ok bytes")) answered++;
            if (between > before) straight++;
        }

        void close() throws Exception {
            if (closed) return;
            closed = true;
            plain.close();
            chained.close();
            observed.close();
            general.close();
        }
    }

    /** A view to set on every handle. */
    private record View(long disp, int etypeBytes, boolean contiguous, String datarep) {
        static View random(Random rnd) {
            int[] etypes = {1, 1, 4, 3};
            return new View(rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(5000), etypes[rnd.nextInt(etypes.length)], rnd.nextInt(4) != 0,
                    rnd.nextInt(6) == 0 ? "external32" : "native");
        }

        String install(File h) throws Exception {
            Datatype etype = etypeBytes == 1 ? MPI.BYTE : Datatype.Contiguous(etypeBytes, MPI.BYTE);
            Datatype filetype = contiguous ? etype : Datatype.Vector(4, 2, 3, etype);
            h.setView(disp, etype, filetype, datarep, null);
            return "ok at " + h.getPosition();
        }
    }
}
