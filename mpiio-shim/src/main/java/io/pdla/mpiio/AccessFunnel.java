package io.pdla.mpiio;

import io.pdla.collective.TwoPhaseEngine;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.IoCall;
import io.pdla.straight.StraightPath;
import mpi.Datatype;
import mpi.MPIException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Every data call of a file passes here (ROMIO's {@code io_impl.c}): one validation for every variant
 * (explicit offset, individual or shared pointer; array or ByteBuffer; blocking, nonblocking or collective),
 * so that nothing reaches a driver before it passes, then one {@link IoCall} of flattened extents through
 * the interceptor chain. Collective calls end in the two-phase engine instead of the driver; a rank whose
 * call fails before it gets there vetoes ({@code abstain}), so the ranks already inside move no byte.
 */
final class AccessFunnel {
    private final OpenFile file;
    private final String readWhere;
    private final String writeWhere;
    /**
     * Datatypes are flattened once per handle (ROMIO's flattened-type cache); MPJ types have no equals. Guarded by
     * itself: a split ordered call validates on the handle's collective thread while the application's thread may make
     * other calls (only a call whose type is not {@link #last} takes the lock).
     */
    private final Map<Datatype, FileType> flattened = new IdentityHashMap<>();
    /** The last type flattened, with its flattening: one reference, so a reader never pairs one type with another's. */
    private volatile LastFlattened last;

    private record LastFlattened(Datatype type, FileType flattened) {
    }

    /**
     * Hint: whether this handle's everyday calls may take the {@link StraightPath}; {@code true} unless given
     * {@code false}, which sends every call the general way (to tell whether the straight path is to blame).
     */
    static final String HINT_STRAIGHT_CALLS = "pdla_straight_calls";
    /** The handle's straight path (its {@link OpenFile}'s), which this funnel tells of the memory types it finds plain. */
    private final StraightPath straight;

    /**
     * The most bytes one piece of a call packs into one ByteBuffer: an independent call above it (arrays of
     * wide elements reach 16 GiB) runs as consecutive pieces of whole items. A system property so that
     * tests can make pieces small; 1 GiB otherwise.
     */
    private final long pieceBytes = pieceBytes();

    /** {@link #pieceBytes} as the system property says now. */
    static long pieceBytes() {
        return Long.getLong("pdla.mpiio.pieceBytes", 1L << 30);
    }

    AccessFunnel(OpenFile file) {
        this.file = file;
        this.readWhere = file.name() + ": rank " + file.coll().rank() + ": read: ";
        this.writeWhere = file.name() + ": rank " + file.coll().rank() + ": write: ";
        this.straight = file.straight();
    }

    /** The {@value #HINT_STRAIGHT_CALLS} hint of an open; a value other than true/false is an {@link IllegalArgumentException} naming it. */
    static boolean straightCalls(Map<String, String> hints) {
        return io.pdla.hints.HintFlag.of(hints, HINT_STRAIGHT_CALLS, true);
    }

    /** A call that passed validation: its memory side and its length in etypes of the view. */
    record Access(IoOp op, Positioning positioning, UserBuffer memory, long etypes) {
    }

    /** Describes the application's buffer, or says (naming {@code where}) why it cannot be used. */
    @FunctionalInterface
    interface Memory {
        UserBuffer describe(String where) throws MPIIOException;
    }

    Memory array(Object buf, int bufOffset, int count, Datatype type) {
        return new ArrayMemory(this, buf, bufOffset, count, type);
    }

    /**
     * The everyday call's memory (an array and an MPJ datatype), as a named class rather than a lambda: a lambda's
     * call site is linked at its first call in each rank's class loader, a named class loads with the rank's warm-up.
     */
    private record ArrayMemory(AccessFunnel funnel, Object buf, int bufOffset, int count, Datatype type) implements Memory {
        @Override
        public UserBuffer describe(String where) throws MPIIOException {
            return funnel.typedArray(where, buf, bufOffset, count, type);
        }
    }

    /** An array described by one of pdla's flattened types (subarray, darray, ... as memory types). */
    Memory typed(Object buf, int bufOffset, int count, FileType type) {
        return where -> {
            if (count < 0) throw new MPIIOException(ErrorClass.ERR_COUNT, where + "count must be >= 0, was " + count);
            if (type == null) throw new MPIIOException(ErrorClass.ERR_TYPE, where + "datatype is null");
            return new UserBuffer.TypedArray(buf, MemoryLayout.of(where, buf, bufOffset, count, null, type), type);
        };
    }

    static Memory bytes(ByteBuffer buf) {
        return where -> {
            if (buf == null) throw new MPIIOException(ErrorClass.ERR_ARG, where + "buffer is null");
            return new UserBuffer.Bytes(buf);
        };
    }

    // ---------------------------------------------------------------- the calls

    /** An independent blocking call; moves the individual pointer when it is the one used. */
    IoStatus independent(IoOp op, Positioning positioning, long offset, Memory memory) throws MPIException {
        return run(op, positioning, offset, memory, false);
    }

    /** An independent blocking call of an MPJ array: on the {@link StraightPath} when it takes it, else {@link #independent}. */
    IoStatus independentArray(IoOp op, Positioning positioning, long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        long position = positioning == Positioning.EXPLICIT_OFFSET ? offset : file.pointer();
        long moved;
        try {
            moved = straight.independent(op, positioning, position, buf, bufOffset, count, type);
        } catch (IOException | RuntimeException e) {
            throw file.translate(e, what(op, position));
        }
        if (moved != StraightPath.NOT_TAKEN) return straightDone(positioning, position, moved);
        return independent(op, positioning, offset, array(buf, bufOffset, count, type));
    }

    /**
     * An independent blocking call of a {@link ByteBuffer} ({@link File#readAt(long, ByteBuffer)}, {@link File#writeAt(long,
     * ByteBuffer)}): a heap buffer that may be written (it has an accessible array) goes on the {@link StraightPath} as an
     * array does, from its position, and the position moves past the bytes moved, as the general path leaves it; any
     * other call takes the general path.
     */
    IoStatus independentBuffer(IoOp op, Positioning positioning, long offset, ByteBuffer buf) throws MPIException {
        if (buf != null && buf.hasArray()) {
            int start = buf.position(), from = buf.arrayOffset() + start;
            long position = positioning == Positioning.EXPLICIT_OFFSET ? offset : file.pointer();
            long moved;
            try {
                moved = straight.independentBytes(op, positioning, position, buf.array(), from, buf.remaining());
            } catch (IOException | RuntimeException e) {
                throw file.translate(e, what(op, position));
            }
            if (moved != StraightPath.NOT_TAKEN) {
                buf.position(Math.toIntExact(start + moved));
                return straightDone(positioning, position, moved);
            }
        }
        return independent(op, positioning, offset, bytes(buf));
    }

    /** A call the straight path moved {@code moved} bytes of: the pointer it used moves past them. */
    private IoStatus straightDone(Positioning positioning, long position, long moved) {
        if (positioning == Positioning.INDIVIDUAL_POINTER) file.movePointer(position + moved / file.view().etypeBytes());
        return new IoStatus(moved, 1);
    }

    /**
     * A collective blocking call of an MPJ array: on the {@link StraightPath} when it takes it (a handle with no
     * interceptor; the engine's protocol without an {@link IoCall} unless the ranks decide on two-phase), then the
     * agreement as {@link #collective} makes it; else the general path. Ranks may differ in the path they take.
     */
    IoStatus collectiveArray(IoOp op, Positioning positioning, long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        file.ensureOpen("collective access");
        file.background().awaitCollectives();
        long pointerBefore = file.pointer();
        long position = positioning == Positioning.EXPLICIT_OFFSET ? offset : pointerBefore;
        long moved;
        MPIIOException local = null;
        try {
            moved = straight.collective(op, positioning, position, buf, bufOffset, count, type);
        } catch (IOException | RuntimeException e) {
            moved = 0;
            local = file.translate(e, what(op, position));
        }
        // outside the try: the general path agrees itself, and its MPIIOException (a RuntimeException) is its outcome
        if (moved == StraightPath.NOT_TAKEN) return collectiveNow(op, positioning, offset, array(buf, bufOffset, count, type));
        return agreed(local == null ? straightDone(positioning, position, moved) : null, local, pointerBefore);
    }

    /** A collective call: every rank runs it, then all agree, so all succeed or all fail with one class. */
    IoStatus collective(IoOp op, Positioning positioning, long offset, Memory memory) throws MPIException {
        file.ensureOpen("collective access");
        file.background().awaitCollectives();
        return collectiveNow(op, positioning, offset, memory);
    }

    /** {@link #collective} once the handle is known open and no nonblocking collective of it is in flight. */
    private IoStatus collectiveNow(IoOp op, Positioning positioning, long offset, Memory memory) throws MPIException {
        IoStatus status = null;
        MPIIOException local = null;
        long pointerBefore = file.pointer();
        try {
            status = run(op, positioning, offset, memory, true);
        } catch (MPIIOException e) {
            local = e;
        }
        return agreed(status, local, pointerBefore);
    }

    /**
     * A collective call's end: every rank agrees on the outcome ({@code local}: this rank's failure, or null); a call that
     * failed anywhere moved no individual pointer, so the ranks' pointers stay in step.
     */
    private IoStatus agreed(IoStatus status, MPIIOException local, long pointerBefore) throws MPIException {
        try {
            agree(local);
        } catch (MPIException e) {
            file.movePointer(pointerBefore);
            throw e;
        }
        return status;
    }

    /**
     * MPI_File_iread_at, iwrite, iread_shared, ...: validated now, so bad arguments fail the call itself;
     * the pointer used moves now by the whole request (as MPI says), the bytes move in the background.
     */
    IoRequest nonblocking(IoOp op, Positioning positioning, long offset, Memory memory) throws MPIException {
        Access access = validate(op, positioning, offset, memory);
        long position = claim(access, positioning, offset);
        return file.background().submit(() -> transfer(access, position, false));
    }

    /**
     * MPI_File_iread_all, iwrite_at_all, the split collectives: validated and positioned now, then run as
     * the blocking collective would, agreement included, on the file's collective thread. A rank whose
     * arguments fail still takes part there (it vetoes), so its request and every other rank's fail with
     * the same class and nobody hangs.
     */
    IoRequest nonblockingCollective(IoOp op, Positioning positioning, long offset, Memory memory) throws MPIException {
        file.ensureOpen("collective access");
        Access access = null;
        long position = -1;
        MPIIOException local = null;
        try {
            access = validate(op, positioning, offset, memory);
            position = claim(access, positioning, offset);
        } catch (MPIIOException e) {
            local = e;
        }
        Access a = access;
        long at = position;
        MPIIOException failed = local;
        return file.background().submitCollective(() -> {
            IoStatus status = null;
            MPIIOException mine = failed;
            if (mine != null) {
                abstain(op);
            } else {
                try {
                    status = transfer(a, at, true);
                } catch (MPIIOException e) {
                    mine = e;
                }
            }
            agree(mine);
            return status;
        });
    }

    /**
     * The collective call's agreement: on the outcomes the engine already gathered when the call agreed inside its
     * first all-gather (a read of each rank's own bytes, {@link TwoPhaseEngine#foldAgreements}), else in a meeting.
     */
    private void agree(MPIIOException local) throws MPIException {
        if (!file.atomic() && file.engine().takeUnmet()) { // a read the ranks skip the meetings of: its outcome is this rank's
            if (local != null) throw local;
            return;
        }
        long[] gathered = file.atomic() ? null : file.engine().takeAgreedOutcomes();
        if (gathered != null) file.coll().agree(gathered, TwoPhaseEngine.ROW, TwoPhaseEngine.AGREED_AT, local, file.name());
        else file.coll().agree(local, file.name());
    }

    /** The view position a nonblocking call starts at; advances the pointer it uses past the whole request. */
    private long claim(Access access, Positioning positioning, long offset) throws MPIIOException {
        if (positioning == Positioning.EXPLICIT_OFFSET) return offset;
        if (positioning == Positioning.SHARED_POINTER) return claimShared(access.op(), access.etypes());
        long at = file.pointer();
        file.movePointer(at + access.etypes());
        return at;
    }

    private IoStatus run(IoOp op, Positioning positioning, long offset, Memory memory, boolean collective) throws MPIException {
        Access access;
        long position;
        try {
            access = validate(op, positioning, offset, memory);
            if (positioning == Positioning.EXPLICIT_OFFSET) position = offset;
            else if (positioning == Positioning.INDIVIDUAL_POINTER) position = file.pointer();
            else position = claimShared(op, access.etypes());
        } catch (RuntimeException e) {
            // the other ranks are already in the collective engine: this rank vetoes, so none of them moves a byte
            if (collective) abstain(op);
            if (e instanceof MPIIOException m) throw m;
            throw file.translate(e, op.name().toLowerCase());
        }
        IoStatus status = transfer(access, position, collective);
        if (positioning == Positioning.INDIVIDUAL_POINTER) file.movePointer(position + status.getBytes() / file.view().etypeBytes());
        return status;
    }

    /** Advances the shared pointer past this call's etypes; the call starts where it was. */
    private long claimShared(IoOp op, long etypes) throws MPIIOException {
        try {
            return file.sharedPointer().fetchAndAdd(etypes);
        } catch (IOException e) {
            throw file.translate(e, op + " (shared pointer)");
        }
    }

    // ---------------------------------------------------------------- validation

    /**
     * Everything MPI requires of a data call before any byte moves: the handle is open, the amode allows
     * the operation and the positioning, the offset is valid, the buffer matches its datatype, and the call
     * is a whole number of etypes of the view. Ordered access validates here too, before its protocol.
     */
    Access validate(IoOp op, Positioning positioning, long offset, Memory memory) throws MPIIOException {
        try {
            file.ensureOpen(op == IoOp.READ ? "read" : "write"); // constants: no string built per call
            String where = op == IoOp.READ ? readWhere : writeWhere;
            if (op == IoOp.READ && file.opened(MPIIO.MODE_WRONLY)) throw new MPIIOException(ErrorClass.ERR_ACCESS, where + "file opened MODE_WRONLY");
            if (op == IoOp.WRITE && file.opened(MPIIO.MODE_RDONLY)) throw new MPIIOException(ErrorClass.ERR_READ_ONLY, where + "file opened MODE_RDONLY");
            if (positioning == Positioning.EXPLICIT_OFFSET && offset < 0) throw new MPIIOException(ErrorClass.ERR_ARG, where + "offset must be >= 0, was " + offset);
            if (positioning != Positioning.SHARED_POINTER && file.opened(MPIIO.MODE_SEQUENTIAL)) {
                throw new MPIIOException(ErrorClass.ERR_UNSUPPORTED_OPERATION, where + "MODE_SEQUENTIAL files allow only shared-pointer access");
            }
            UserBuffer buffer = memory.describe(where);
            long etype = file.view().etypeBytes();
            if (buffer.bytes() > 0 && file.view().filetype().sizeBytes() == 0) {
                throw new MPIIOException(ErrorClass.ERR_ARG, where + buffer.bytes() + " bytes through a view whose filetype holds no data");
            }
            if (buffer.bytes() % etype != 0) {
                // ROMIO's class (MPIO_CHECK_INTEGRAL_ETYPE: MPI_ERR_IO, "**ioetype"); MPI names none
                throw new MPIIOException(ErrorClass.ERR_IO, where + buffer.bytes() + " bytes is not a whole number of " + etype + "-byte etypes");
            }
            return new Access(op, positioning, buffer, buffer.bytes() / etype);
        } catch (MPIIOException e) {
            throw e;
        } catch (RuntimeException e) {
            throw file.translate(e, op.name().toLowerCase());
        }
    }

    private UserBuffer typedArray(String where, Object buf, int bufOffset, int count, Datatype type) throws MPIIOException {
        if (count < 0) throw new MPIIOException(ErrorClass.ERR_COUNT, where + "count must be >= 0, was " + count);
        if (type == null) throw new MPIIOException(ErrorClass.ERR_TYPE, where + "datatype is null");
        // the last type again (the everyday case: one datatype per loop) needs no map lookup
        LastFlattened l = last;
        FileType memType = l != null && l.type() == type ? l.flattened() : cachedFlattening(type);
        if (memType == null) {
            try {
                memType = Datatypes.flatten(type);
            } catch (MPIIOException e) {
                throw new MPIIOException(e.errorClass(), where + e.getMessage(), e);
            }
            synchronized (flattened) {
                flattened.put(type, memType);
            }
        }
        if (l == null || l.type() != type) last = new LastFlattened(type, memType);
        MemoryLayout layout = MemoryLayout.of(where, buf, bufOffset, count, type, memType);
        // of() found the array's element type the datatype's base type: a byte array's items are whole bytes
        if (buf instanceof byte[] && !straight.isPlainType(type) && isPlain(memType)) straight.plainType(type, memType.sizeBytes());
        return new UserBuffer.TypedArray(buf, layout, memType);
    }

    private FileType cachedFlattening(Datatype type) {
        synchronized (flattened) {
            return flattened.get(type);
        }
    }

    /** Items of one run each at offset 0, back to back, at most 2^31 bytes: {@code count} of them are one run. */
    private static boolean isPlain(FileType t) {
        return t.elementBytes() == 1 && t.isContiguous() && t.lbBytes() == 0 && t.extentBytes() == t.sizeBytes()
                && t.sizeBytes() > 0 && t.sizeBytes() <= Integer.MAX_VALUE;
    }

    // ---------------------------------------------------------------- transfer

    /**
     * Runs a validated call at a view position: in one piece, or, for an independent call above
     * {@link #pieceBytes}, as consecutive pieces of whole items (a short read ends it).
     */
    IoStatus transfer(Access access, long position, boolean collective) throws MPIIOException {
        long bytes = access.memory().bytes();
        if (collective && !file.atomic() && (bytes <= pieceBytes || access.memory() instanceof UserBuffer.TypedArray)) {
            return collectiveInPieces(access, position);
        }
        if (bytes <= pieceBytes) return transferPiece(access, position, collective);
        String what = access.op().name().toLowerCase() + " at view position " + position;
        if (collective || !(access.memory() instanceof UserBuffer.TypedArray t)) {
            if (collective) abstain(access.op());
            throw new MPIIOException(ErrorClass.ERR_ARG, file.name() + ": rank " + file.coll().rank() + ": " + what + ": " + bytes
                    + " bytes in one " + (collective ? "collective call" : "ByteBuffer call") + " (at most " + pieceBytes + "; split the call)");
        }
        long etype = file.view().etypeBytes();
        long done = 0;
        for (Access piece : pieces(access, t)) {
            IoStatus s = transferPiece(piece, position + done / etype, false);
            done += s.getBytes();
            if (s.getBytes() < piece.memory().bytes()) break;
        }
        return new IoStatus(done, t.type().elementBytes());
    }

    /** A typed-array call as consecutive pieces of whole items, each at most {@link #pieceBytes} and a whole number of etypes. */
    private java.util.List<Access> pieces(Access access, UserBuffer.TypedArray t) {
        long etype = file.view().etypeBytes();
        long itemBytes = t.type().sizeBytes();
        long step = etype / gcd(itemBytes, etype);
        long items = Math.max(step, (pieceBytes / itemBytes) / step * step);
        java.util.List<Access> out = new java.util.ArrayList<>();
        for (long first = 0; first < t.layout().count(); first += items) {
            UserBuffer.TypedArray piece = t.items(first, (int) Math.min(items, t.layout().count() - first));
            out.add(new Access(access.op(), access.positioning(), piece, piece.bytes() / etype));
        }
        return out;
    }

    /**
     * A collective call in pieces of at most {@link #pieceBytes}: every rank makes the same number of collective
     * calls (each tells the engine's first all-gather whether more of its pieces follow, and ranks whose pieces are
     * done join with empty ones), so a call above 1 GiB on one rank and small on the others needs no extra step.
     */
    private IoStatus collectiveInPieces(Access access, long position) throws MPIIOException {
        long etype = file.view().etypeBytes();
        java.util.List<Access> mine = access.memory().bytes() <= pieceBytes || !(access.memory() instanceof UserBuffer.TypedArray t)
                ? java.util.List.of(access) : pieces(access, t);
        Access none = null; // an empty piece, made only when some other rank still has pieces
        IoStatus single = null;
        long done = 0;
        int k = 0;
        boolean ended = false; // a short read: this rank's later pieces lie past the end
        MPIIOException failure = null; // kept until the other ranks' pieces are done, so nobody waits for this rank
        do {
            boolean have = failure == null && !ended && k < mine.size();
            file.engine().morePiecesFollow(have && k + 1 < mine.size());
            if (!have && none == null) none = new Access(access.op(), access.positioning(), new UserBuffer.Bytes(ByteBuffer.allocate(0)), 0);
            IoStatus s = null;
            // the engine may agree on the outcome itself only when nothing after it can fail: one piece on this rank
            // (the others' pieces it learns in the call), and bytes that go to memory unconverted
            file.engine().foldsAgreement(k == 0 && mine.size() == 1 && file.view().representation().identityForBytes());
            try {
                s = transferPiece(have ? mine.get(k) : none, position + done / etype, true);
            } catch (MPIIOException e) {
                if (failure == null) failure = e;
            }
            if (have && s != null) {
                single = s;
                done += s.getBytes();
                if (s.getBytes() < mine.get(k).memory().bytes()) ended = true;
            }
            k++;
        } while (file.engine().anyRankHasMorePieces());
        if (failure != null) throw failure;
        if (mine.size() == 1) return single;
        return new IoStatus(done, ((UserBuffer.TypedArray) access.memory()).type().elementBytes());
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** Turns a validated call at a view position into one IoCall and runs it to the driver or the engine. */
    private IoStatus transferPiece(Access access, long position, boolean collective) throws MPIIOException {
        IoOp op = access.op();
        ExtentList extents;
        ByteBuffer stream;
        try {
            extents = file.view().extents(position, access.memory().bytes());
            stream = access.memory().stream(op, file.view().representation());
        } catch (IllegalArgumentException e) {
            // the view maps the access where no file offset is (past 2^63; ExtentList refuses such extents as it
            // builds them): the caller's arguments, the view's displacement or filetype extent
            if (collective) abstain(op);
            throw ErrorMapping.badArgument(file.name() + ": rank " + file.coll().rank() + ": " + what(op, position)
                    + ": the view maps this access past the largest file offset (check its displacement and filetype extent): ", e);
        } catch (RuntimeException e) {
            if (collective) abstain(op);
            throw file.translate(e, what(op, position));
        }
        if (op == IoOp.WRITE) file.engine().dataChanged();
        long moved;
        try {
            IoCall call = IoCall.data(file.context(), op, access.positioning(), collective, extents, stream);
            // atomic mode: every rank's part under its own byte-range lock, never two-phase (an aggregator's
            // window mixes ranks' bytes, so no single lock order would make the calls sequentially consistent)
            if (file.atomic()) moved = file.chain().execute(call, file.atomicAccess());
            else moved = collective ? file.chain().execute(call, file.engine()) : file.chain().execute(call);
        } catch (IOException | RuntimeException e) {
            throw file.translate(e, what(op, position));
        } finally {
            if (op == IoOp.WRITE) file.engine().dataChanged(); // and once done (see dataChanged: nonblocking writes)
        }
        return access.memory().completed(op, stream, moved, file.view().representation());
    }

    /** Built only when a call fails: a string per call cost 5-10 % of a 16 KiB page-cache read. */
    private static String what(IoOp op, long position) {
        return op.name().toLowerCase() + " at view position " + position;
    }

    private void abstain(IoOp op) throws MPIIOException {
        if (file.atomic()) return; // atomic collective calls never enter the engine: the agreement alone reports it
        try {
            file.engine().abstain(op);
        } catch (IOException e) {
            throw file.translate(e, "collective access");
        }
    }
}
