package io.pdla.mpiio;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.AppIdentity;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.IoCall;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageFile;
import io.pdla.storage.sieve.SievingSettings;
import io.pdla.storage.sieve.SievingStorageFile;
import mpi.Comm;
import mpi.Datatype;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import io.pdla.mpiio.collective.CollectiveStatistics;
import io.pdla.mpiio.collective.CollectiveSetup;
import io.pdla.mpiio.collective.MpjExchange;
import io.pdla.mpiio.collective.SharedMemoryExchange;
import io.pdla.mpiio.collective.RankExchange;
import io.pdla.mpiio.collective.TwoPhaseEngine;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * An MPI-IO file of an MPJ Express program: MPI_File_* in the shape of Open MPI's Java {@code mpi.File},
 * with MPJ's buffer convention (array, element offset, count, datatype).
 *
 * <p>Every access is validated here, at the edge, then funnelled into one {@link IoCall} of flattened
 * extents that runs through the interceptor chain (tracer, redirect, delegate) to the storage driver, as
 * ROMIO funnels every MPI_File_* variant into one ADIO call. Collective calls run the same path on every
 * rank and then agree on the outcome, so that either all ranks succeed or all fail with the same class.
 *
 * <p>Offsets and positions are in etypes of the current view, as in MPI. A handle is used by one thread
 * at a time (MPI_THREAD_SINGLE semantics), except that nonblocking requests run in the background.
 */
public final class File {
    private final Collective coll;
    private final String name;
    private final URI uri;
    private final StorageDriver driver;
    private final StorageFile storage;
    private final FileContext context;
    private final InterceptorChain chain;
    private final int amode;
    private final Map<String, String> hints;
    /** The hints as the application gave them: effective values reported by getInfo must not read as choices. */
    private final Map<String, String> givenHints;
    private final SharedFilePointer sharedPointer;
    private final Map<Datatype, FileType> flattened = new IdentityHashMap<>();
    private final String readWhere;
    private final String writeWhere;
    private final RankExchange exchange;
    private final TwoPhaseEngine engine;
    private FileView view = FileView.defaultView();
    private long pointer;
    private ExecutorService background;
    private boolean closed;

    /** MPI_File_open with no hints. Collective over {@code comm}. */
    public File(Comm comm, String filename, int amode) throws MPIException {
        this(comm, filename, amode, new Info());
    }

    /** MPI_File_open. Collective over {@code comm}; every rank must pass the same name and amode. */
    public File(Comm comm, String filename, int amode, Info info) throws MPIException {
        if (comm == null) throw new MPIIOException(ErrorClass.ERR_ARG, "communicator is null opening " + filename);
        Object dup = comm.clone();
        if (!(dup instanceof Intracomm intra)) {
            throw new MPIIOException(ErrorClass.ERR_ARG, "opening " + filename + ": an intracommunicator is required, got " + comm.getClass().getName());
        }
        this.coll = new Collective(intra);
        this.name = filename;
        this.amode = amode;
        int rank = coll.rank();
        this.readWhere = filename + ": rank " + rank + ": read: ";
        this.writeWhere = filename + ": rank " + rank + ": write: ";
        coll.requireSame(new long[]{amode, filename == null ? 0 : filename.hashCode()}, new String[]{"amode", "file name"}, String.valueOf(filename));
        checkAmode(amode, filename, rank);
        Map<String, String> h = new LinkedHashMap<>(info == null ? Map.of() : info.asMap());
        try {
            this.uri = StorageDrivers.toUri(filename);
            this.driver = StorageDrivers.installed().forUri(uri);
        } catch (IllegalArgumentException e) {
            throw new MPIIOException(ErrorClass.ERR_ARG, "rank " + rank + ": " + e.getMessage(), e);
        }
        boolean read = (amode & MPIIO.MODE_WRONLY) == 0;
        boolean write = (amode & MPIIO.MODE_RDONLY) == 0;
        boolean create = (amode & MPIIO.MODE_CREATE) != 0;
        boolean excl = (amode & MPIIO.MODE_EXCL) != 0;
        OpenOptions options = new OpenOptions(read, write, create, excl, h);

        // Rank 0 alone creates, so that EXCL means "did not exist before this collective open"; the same
        // broadcast carries the outcome and the job-unique token that names the shared-pointer side file.
        UUID mine = UUID.randomUUID();
        long[] outcome = {0, mine.getMostSignificantBits(), mine.getLeastSignificantBits()};
        MPIIOException createError = null;
        if (rank == 0 && create) {
            try {
                driver.open(uri, options).close();
            } catch (IOException e) {
                createError = translate(e, "open", rank);
                outcome[0] = createError.errorClass().ordinal() + 1;
            }
        }
        coll.bcast(outcome);
        if (createError != null) throw createError;
        if (outcome[0] != 0) {
            throw new MPIIOException(ErrorClass.values()[(int) outcome[0] - 1], filename + ": creating the file failed on rank 0 (this is rank " + rank + ")");
        }
        String token = new UUID(outcome[1], outcome[2]).toString();
        // Ranks that are threads of this JVM (multicore device) will exchange through shared memory; joining
        // before the agreement below means that after it every rank sees whether all of them joined here.
        SharedMemoryExchange shm = SharedMemoryExchange.join(token, rank, coll.size());

        StorageFile opened = null;
        MPIIOException local = null;
        try {
            opened = openForSieving(driver, uri, options.withoutCreate(), h);
        } catch (IOException e) {
            local = translate(e, "open", rank);
        } catch (IllegalArgumentException e) {
            local = new MPIIOException(ErrorClass.ERR_ARG, filename + ": rank " + rank + ": " + e.getMessage(), e);
        }
        try {
            coll.agree(local, filename);
        } catch (MPIException e) {
            shm.leave();
            closeQuietly(opened);
            throw e;
        }
        this.storage = opened;
        this.hints = h;
        this.givenHints = new LinkedHashMap<>(h);
        this.exchange = shm.complete() ? shm : leaving(shm, new MpjExchange(intra));
        coll.use(exchange);
        // Interceptors key their per-process state (trace files, patterns) by the process, so they see the
        // COMM_WORLD rank and size, whatever communicator this file was opened on.
        int worldRank = MPI.COMM_WORLD.Rank(), worldSize = MPI.COMM_WORLD.Size();
        this.context = new FileContext(filename, uri, amode, worldRank, coll.size(), AppIdentity.detect(h, worldSize), h, driver, storage);
        try {
            this.chain = new InterceptorChain(RankState.interceptors(h, (amode & MPIIO.MODE_RDONLY) == 0));
        } catch (IllegalArgumentException e) {
            closeQuietly(storage);
            throw new MPIIOException(ErrorClass.ERR_ARG, filename + ": rank " + rank + ": " + e.getMessage(), e);
        }
        long initial = 0;
        if ((amode & MPIIO.MODE_APPEND) != 0) {
            try {
                initial = view.positionAtFileSize(storage.size());
            } catch (IOException e) {
                throw translate(e, "open (append)", rank);
            }
        }
        this.pointer = initial;
        TwoPhaseEngine twoPhase = null;
        MPIIOException badHint = null;
        try {
            twoPhase = CollectiveSetup.engine(exchange, h, storage, chain);
        } catch (IllegalArgumentException e) {
            badHint = new MPIIOException(ErrorClass.ERR_ARG, filename + ": rank " + rank + ": " + e.getMessage(), e);
        } catch (IOException e) {
            badHint = translate(e, "open (collective buffering)", rank);
        }
        try {
            coll.agree(badHint, filename);
        } catch (MPIException e) {
            closeQuietly(storage);
            if (exchange instanceof SharedMemoryExchange s) s.leave();
            throw e;
        }
        this.engine = twoPhase;
        hints.putAll(twoPhase.settings().effective());
        hints.putAll(SievingSettings.fromHints(h).effectiveHints());
        Path dir = Path.of(h.getOrDefault(SharedFilePointer.HINT_DIR, System.getProperty("java.io.tmpdir")));
        this.sharedPointer = new SharedFilePointer(dir.resolve("pdla-shfp-" + token), initial);
        RankState.opened(uri);
        try {
            chain.opened(context);
        } catch (IOException e) {
            throw translate(e, "open (interceptors)", rank);
        }
    }

    /**
     * Opens the store and puts ROMIO's data sieving around it where the hints allow. Sieved writes read
     * the window first, so a MODE_WRONLY file is opened for reading too, as ROMIO does (the shim still
     * refuses the application's reads); where that is not allowed, writes are not sieved.
     */
    private static StorageFile openForSieving(StorageDriver driver, URI uri, OpenOptions options, Map<String, String> hints) throws IOException {
        boolean writeOnly = options.write() && !options.read();
        if (writeOnly && SievingSettings.fromHints(hints).write() != SievingSettings.Mode.DISABLE) {
            StorageFile both = null;
            try {
                both = driver.open(uri, new OpenOptions(true, true, options.create(), options.exclusive(), options.hints()));
            } catch (IOException noReadAccess) {
                Map<String, String> noWriteSieving = new LinkedHashMap<>(hints);
                noWriteSieving.put(SievingSettings.WRITE, "disable");
                return SievingStorageFile.wrap(driver.open(uri, options), noWriteSieving);
            }
            return SievingStorageFile.wrap(both, hints);
        }
        return SievingStorageFile.wrap(driver.open(uri, options), hints);
    }

    private static void checkAmode(int amode, String file, int rank) throws MPIIOException {
        int access = Integer.bitCount(amode & (MPIIO.MODE_RDONLY | MPIIO.MODE_WRONLY | MPIIO.MODE_RDWR));
        String why = null;
        if ((amode & ~MPIIO.KNOWN_MODES) != 0) why = "unknown mode bits 0x" + Integer.toHexString(amode & ~MPIIO.KNOWN_MODES);
        else if (access != 1) why = "exactly one of MODE_RDONLY, MODE_WRONLY, MODE_RDWR is required";
        else if ((amode & MPIIO.MODE_RDONLY) != 0 && (amode & (MPIIO.MODE_CREATE | MPIIO.MODE_EXCL)) != 0) {
            why = "MODE_RDONLY cannot be combined with MODE_CREATE or MODE_EXCL";
        } else if ((amode & MPIIO.MODE_RDWR) != 0 && (amode & MPIIO.MODE_SEQUENTIAL) != 0) {
            why = "MODE_RDWR cannot be combined with MODE_SEQUENTIAL";
        } else if ((amode & MPIIO.MODE_EXCL) != 0 && (amode & MPIIO.MODE_CREATE) == 0) {
            why = "MODE_EXCL requires MODE_CREATE";
        }
        if (why != null) throw new MPIIOException(ErrorClass.ERR_AMODE, file + ": rank " + rank + ": amode " + amode + ": " + why);
    }

    // ---------------------------------------------------------------- file management

    /** MPI_File_close. Collective. */
    public void close() throws MPIException {
        ensureOpen("close");
        MPIIOException local = null;
        if (background != null) {
            background.shutdown();
            try {
                background.awaitTermination(1, TimeUnit.HOURS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            chain.closing(context);
        } catch (IOException | RuntimeException e) {
            // Interceptors are best-effort; the application's close still succeeds.
            System.err.println("pdla: interceptor failed closing " + name + " on rank " + coll.rank() + ": " + e);
        }
        try {
            storage.close();
        } catch (IOException e) {
            local = translate(e, "close", coll.rank());
        }
        if (local == null) {
            try {
                chain.closed(context);
            } catch (IOException | RuntimeException e) {
                System.err.println("pdla: interceptor failed after closing " + name + " on rank " + coll.rank() + ": " + e);
            }
        }
        closed = true;
        RankState.closed(uri);
        try {
            sharedPointer.close();
        } catch (IOException ignored) {
            // the side file is removed below by rank 0 in any case
        }
        coll.barrier();
        if (coll.rank() == 0) {
            try {
                sharedPointer.delete();
            } catch (IOException ignored) {
                // a leftover side file in the temporary directory is harmless
            }
            if ((amode & MPIIO.MODE_DELETE_ON_CLOSE) != 0) {
                try {
                    driver.delete(uri);
                } catch (IOException e) {
                    if (local == null) local = translate(e, "delete on close", 0);
                }
            }
        }
        try {
            coll.agree(local, name);
        } finally {
            if (exchange instanceof SharedMemoryExchange shm) shm.leave();
        }
        coll.comm().Free();
    }

    /** MPI_File_delete. Not collective. */
    public static void delete(String filename) throws MPIException {
        delete(filename, new Info());
    }

    public static void delete(String filename, Info info) throws MPIException {
        URI uri;
        StorageDriver d;
        try {
            uri = StorageDrivers.toUri(filename);
            d = StorageDrivers.installed().forUri(uri);
        } catch (IllegalArgumentException e) {
            throw new MPIIOException(ErrorClass.ERR_ARG, e.getMessage(), e);
        }
        if (RankState.isOpen(uri)) {
            throw new MPIIOException(ErrorClass.ERR_FILE_IN_USE, filename + ": still open by this process; close it before deleting");
        }
        try {
            d.delete(uri);
        } catch (IOException e) {
            throw translate(e, "delete", filename, -1);
        }
    }

    /** MPI_File_get_size: bytes. */
    public long getSize() throws MPIException {
        ensureOpen("getSize");
        try {
            return storage.size();
        } catch (IOException e) {
            throw translate(e, "getSize", coll.rank());
        }
    }

    /** MPI_File_set_size. Collective; every rank must pass the same size. */
    public void setSize(long size) throws MPIException {
        resize(size, false);
    }

    /** MPI_File_preallocate. Collective; makes the file at least {@code size} bytes. */
    public void preallocate(long size) throws MPIException {
        resize(size, true);
    }

    private void resize(long size, boolean onlyGrow) throws MPIException {
        String what = onlyGrow ? "preallocate" : "setSize";
        ensureOpen(what);
        MPIIOException local = null;
        if (size < 0) local = new MPIIOException(ErrorClass.ERR_ARG, name + ": rank " + coll.rank() + ": " + what + " size must be >= 0, was " + size);
        else if ((amode & MPIIO.MODE_RDONLY) != 0) local = new MPIIOException(ErrorClass.ERR_READ_ONLY, name + ": " + what + " on a file opened MODE_RDONLY");
        else if ((amode & MPIIO.MODE_SEQUENTIAL) != 0) local = new MPIIOException(ErrorClass.ERR_UNSUPPORTED_OPERATION, name + ": " + what + " on a MODE_SEQUENTIAL file");
        coll.agree(local, name);
        coll.requireSame(size, what + " size", name);
        if (coll.rank() == 0) {
            try {
                if (!onlyGrow || storage.size() < size) chain.execute(IoCall.meta(context, IoOp.SET_SIZE, true, size));
            } catch (IOException | RuntimeException e) {
                local = translate(e, what, 0);
            }
        }
        coll.agree(local, name);
    }

    /** MPI_File_sync. Collective. */
    public void sync() throws MPIException {
        ensureOpen("sync");
        MPIIOException local = null;
        try {
            chain.execute(IoCall.meta(context, IoOp.SYNC, true, 0));
        } catch (IOException | RuntimeException e) {
            local = translate(e, "sync", coll.rank());
        }
        coll.agree(local, name);
    }

    public int getAmode() throws MPIException {
        ensureOpen("getAmode");
        return amode;
    }

    /** The group of the communicator the file was opened on. */
    public Group getGroup() throws MPIException {
        ensureOpen("getGroup");
        return coll.comm().Group();
    }

    /** The hints in effect, including those interceptors and drivers read. */
    public Info getInfo() throws MPIException {
        ensureOpen("getInfo");
        return new Info(hints);
    }

    /** MPI_File_set_info. Collective; new hints are added to those in effect. */
    public void setInfo(Info info) throws MPIException {
        ensureOpen("setInfo");
        MPIIOException local = null;
        if (info != null) {
            local = applyHints(info.asMap(), "setInfo");
        }
        coll.agree(local, name);
    }

    /** Merges hints after validating the collective-buffering ones; an invalid one changes nothing. */
    private MPIIOException applyHints(Map<String, String> more, String what) {
        Map<String, String> merged = new LinkedHashMap<>(givenHints);
        merged.putAll(more);
        try {
            SievingSettings.fromHints(merged); // taken at open; a bad new value is still an error
            engine.reconfigure(merged);
        } catch (IllegalArgumentException e) {
            return new MPIIOException(ErrorClass.ERR_ARG, name + ": rank " + coll.rank() + ": " + what + ": " + e.getMessage(), e);
        }
        givenHints.putAll(more);
        hints.putAll(more);
        hints.putAll(engine.settings().effective());
        return null;
    }

    // ---------------------------------------------------------------- views

    /** MPI_File_set_view with MPJ datatypes. Collective. */
    public void setView(long disp, Datatype etype, Datatype filetype, String datarep, Info info) throws MPIException {
        ensureOpen("setView");
        MPIIOException local = null;
        FileType e = null, f = null;
        try {
            e = Datatypes.flatten(etype);
            f = Datatypes.flatten(filetype);
        } catch (MPIIOException ex) {
            local = new MPIIOException(ex.errorClass(), name + ": rank " + coll.rank() + ": setView: " + ex.getMessage(), ex);
        }
        setView(disp, e, f, datarep, info, local);
    }

    /** MPI_File_set_view with pdla's flattened types ({@link Datatypes#subarray}, ...). Collective. */
    public void setView(long disp, FileType etype, FileType filetype, String datarep, Info info) throws MPIException {
        ensureOpen("setView");
        setView(disp, etype, filetype, datarep, info, null);
    }

    private void setView(long disp, FileType etype, FileType filetype, String datarep, Info info, MPIIOException local) throws MPIException {
        String where = name + ": rank " + coll.rank() + ": setView: ";
        if (local == null) {
            if (!MPIIO.DATAREP_NATIVE.equals(datarep)) local = new MPIIOException(ErrorClass.ERR_UNSUPPORTED_DATAREP, where + "datarep '" + datarep + "' (only \"native\")");
            else if (disp < 0) local = new MPIIOException(ErrorClass.ERR_ARG, where + "displacement must be >= 0, was " + disp);
            else if (etype == null || filetype == null) local = new MPIIOException(ErrorClass.ERR_TYPE, where + "etype and filetype are required");
            else if (etype.sizeBytes() == 0) local = new MPIIOException(ErrorClass.ERR_TYPE, where + "etype has size 0");
            else if (!etype.isMonotone() || !filetype.isMonotone()) local = new MPIIOException(ErrorClass.ERR_TYPE, where + "filetype displacements must be non-negative and monotonically non-decreasing");
            else if (filetype.sizeBytes() == 0 || filetype.sizeBytes() % etype.sizeBytes() != 0) local = new MPIIOException(ErrorClass.ERR_TYPE, where + "filetype size " + filetype.sizeBytes() + " is not a positive multiple of the etype size " + etype.sizeBytes());
            else if (filetype.extentBytes() < filetype.sizeBytes()) local = new MPIIOException(ErrorClass.ERR_TYPE, where + "filetype extent " + filetype.extentBytes() + " smaller than its size " + filetype.sizeBytes());
        }
        coll.agree(local, name);
        coll.requireSame(etype.sizeBytes(), "etype size", name);
        view = new FileView(disp, etype, filetype, datarep);
        pointer = 0;
        MPIIOException sp = info != null ? applyHints(info.asMap(), "setView") : null;
        coll.barrier();
        if (coll.rank() == 0) {
            try {
                sharedPointer.set(0);
            } catch (IOException e) {
                sp = translate(e, "setView (shared pointer)", 0);
            }
        }
        try {
            chain.execute(IoCall.meta(context, IoOp.SET_VIEW, true, disp));
        } catch (IOException | RuntimeException e) {
            if (sp == null) sp = translate(e, "setView", coll.rank());
        }
        coll.agree(sp, name);
    }

    public FileView getView() throws MPIException {
        ensureOpen("getView");
        return view;
    }

    // ---------------------------------------------------------------- explicit offsets

    public IoStatus readAt(long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return access(IoOp.READ, Positioning.EXPLICIT_OFFSET, offset, buf, bufOffset, count, type);
    }

    public IoStatus writeAt(long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return access(IoOp.WRITE, Positioning.EXPLICIT_OFFSET, offset, buf, bufOffset, count, type);
    }

    public IoStatus readAtAll(long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return collectively(() -> access(IoOp.READ, Positioning.EXPLICIT_OFFSET, offset, buf, bufOffset, count, type, true));
    }

    public IoStatus writeAtAll(long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return collectively(() -> access(IoOp.WRITE, Positioning.EXPLICIT_OFFSET, offset, buf, bufOffset, count, type, true));
    }

    /** Reads {@code buf.remaining()} bytes at a byte-etype offset into a {@link ByteBuffer}. */
    public IoStatus readAt(long offset, ByteBuffer buf) throws MPIException {
        return bufferAccess(IoOp.READ, offset, buf);
    }

    public IoStatus writeAt(long offset, ByteBuffer buf) throws MPIException {
        return bufferAccess(IoOp.WRITE, offset, buf);
    }

    public IoRequest iReadAt(long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return nonblocking(IoOp.READ, offset, buf, bufOffset, count, type);
    }

    public IoRequest iWriteAt(long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return nonblocking(IoOp.WRITE, offset, buf, bufOffset, count, type);
    }

    // ---------------------------------------------------------------- individual file pointer

    public IoStatus read(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return access(IoOp.READ, Positioning.INDIVIDUAL_POINTER, -1, buf, bufOffset, count, type);
    }

    public IoStatus write(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return access(IoOp.WRITE, Positioning.INDIVIDUAL_POINTER, -1, buf, bufOffset, count, type);
    }

    public IoStatus readAll(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return collectively(() -> access(IoOp.READ, Positioning.INDIVIDUAL_POINTER, -1, buf, bufOffset, count, type, true));
    }

    public IoStatus writeAll(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return collectively(() -> access(IoOp.WRITE, Positioning.INDIVIDUAL_POINTER, -1, buf, bufOffset, count, type, true));
    }

    /** MPI_File_seek on the individual pointer; {@code offset} in etypes. */
    public void seek(long offset, int whence) throws MPIException {
        ensureOpen("seek");
        long target = target(offset, whence, pointer, "seek");
        pointer = target;
        notifySeek(target, false);
    }

    public long getPosition() throws MPIException {
        ensureOpen("getPosition");
        return pointer;
    }

    /** MPI_File_get_byte_offset: the absolute byte offset of a view position. */
    public long getByteOffset(long position) throws MPIException {
        ensureOpen("getByteOffset");
        if (position < 0) throw new MPIIOException(ErrorClass.ERR_ARG, name + ": getByteOffset position must be >= 0, was " + position);
        return view.byteOffset(position);
    }

    // ---------------------------------------------------------------- shared file pointer

    public IoStatus readShared(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return access(IoOp.READ, Positioning.SHARED_POINTER, -1, buf, bufOffset, count, type);
    }

    public IoStatus writeShared(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return access(IoOp.WRITE, Positioning.SHARED_POINTER, -1, buf, bufOffset, count, type);
    }

    /** MPI_File_read_ordered: collective, ranks read one after another in rank order from the shared pointer. */
    public IoStatus readOrdered(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return ordered(IoOp.READ, buf, bufOffset, count, type);
    }

    public IoStatus writeOrdered(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return ordered(IoOp.WRITE, buf, bufOffset, count, type);
    }

    /** MPI_File_seek_shared. Collective; every rank must pass the same offset and whence. */
    public void seekShared(long offset, int whence) throws MPIException {
        ensureOpen("seekShared");
        coll.requireSame(offset, "seekShared offset", name);
        coll.requireSame(whence, "seekShared whence", name);
        MPIIOException local = null;
        long target = 0;
        try {
            target = target(offset, whence, sharedPointer.get(), "seekShared");
        } catch (MPIIOException e) {
            local = e;
        } catch (IOException e) {
            local = translate(e, "seekShared", coll.rank());
        }
        coll.agree(local, name);
        coll.barrier(); // everyone has read the old value before rank 0 changes it
        if (coll.rank() == 0) {
            try {
                sharedPointer.set(target);
            } catch (IOException e) {
                local = translate(e, "seekShared", 0);
            }
        }
        coll.agree(local, name);
        notifySeek(target, true);
    }

    public long getPositionShared() throws MPIException {
        ensureOpen("getPositionShared");
        try {
            return sharedPointer.get();
        } catch (IOException e) {
            throw translate(e, "getPositionShared", coll.rank());
        }
    }

    // ---------------------------------------------------------------- the funnel

    private interface LocalAccess {
        IoStatus run() throws MPIException;
    }

    private IoStatus collectively(LocalAccess access) throws MPIException {
        ensureOpen("collective access");
        IoStatus status = null;
        MPIIOException local = null;
        try {
            status = access.run();
        } catch (MPIIOException e) {
            local = e;
        }
        coll.agree(local, name);
        return status;
    }

    private IoStatus access(IoOp op, Positioning positioning, long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return access(op, positioning, offset, buf, bufOffset, count, type, false);
    }

    private IoStatus access(IoOp op, Positioning positioning, long offset, Object buf, int bufOffset, int count,
                            Datatype type, boolean collective) throws MPIException {
        Prepared p;
        long position;
        try {
            p = prepare(op, positioning, offset, buf, bufOffset, count, type);
            if (positioning == Positioning.EXPLICIT_OFFSET) {
                position = offset;
            } else if (positioning == Positioning.INDIVIDUAL_POINTER) {
                position = pointer;
            } else {
                try {
                    position = sharedPointer.fetchAndAdd(p.etypes);
                } catch (IOException e) {
                    throw translate(e, op + " (shared pointer)", coll.rank());
                }
            }
        } catch (RuntimeException e) {
            // the other ranks are already in the collective engine: this rank vetoes, so none of them moves a byte
            if (collective) abstain();
            if (e instanceof MPIIOException m) throw m;
            throw translate(e, op.name().toLowerCase(), coll.rank());
        }
        IoStatus status = transfer(op, positioning, collective, position, p, buf);
        if (positioning == Positioning.INDIVIDUAL_POINTER) pointer = position + status.getBytes() / view.etypeBytes();
        return status;
    }

    private void abstain() throws MPIIOException {
        try {
            engine.abstain();
        } catch (IOException e) {
            throw translate(e, "collective access", coll.rank());
        }
    }

    /** What validation of an access yields: the memory layout, its flattened type and its size in etypes. */
    private record Prepared(MemoryLayout layout, FileType memType, long etypes) {
    }

    private Prepared prepare(IoOp op, Positioning positioning, long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIIOException {
        ensureOpen(op == IoOp.READ ? "read" : "write");
        String where = op == IoOp.READ ? readWhere : writeWhere;
        if (op == IoOp.READ && (amode & MPIIO.MODE_WRONLY) != 0) throw new MPIIOException(ErrorClass.ERR_ACCESS, where + "file opened MODE_WRONLY");
        if (op == IoOp.WRITE && (amode & MPIIO.MODE_RDONLY) != 0) throw new MPIIOException(ErrorClass.ERR_READ_ONLY, where + "file opened MODE_RDONLY");
        if (positioning == Positioning.EXPLICIT_OFFSET && offset < 0) throw new MPIIOException(ErrorClass.ERR_ARG, where + "offset must be >= 0, was " + offset);
        if (positioning != Positioning.SHARED_POINTER && (amode & MPIIO.MODE_SEQUENTIAL) != 0) {
            throw new MPIIOException(ErrorClass.ERR_UNSUPPORTED_OPERATION, where + "MODE_SEQUENTIAL files allow only shared-pointer access");
        }
        if (count < 0) throw new MPIIOException(ErrorClass.ERR_ARG, where + "count must be >= 0, was " + count);
        if (type == null) throw new MPIIOException(ErrorClass.ERR_TYPE, where + "datatype is null");
        FileType memType = flattened.get(type);
        if (memType == null) {
            try {
                memType = Datatypes.flatten(type);
            } catch (MPIIOException e) {
                throw new MPIIOException(e.errorClass(), where + e.getMessage(), e);
            }
            flattened.put(type, memType);
        }
        MemoryLayout layout = MemoryLayout.of(where, buf, bufOffset, count, type, memType);
        long etype = view.etypeBytes();
        if (layout.bytes() % etype != 0) {
            throw new MPIIOException(ErrorClass.ERR_TYPE, where + layout.bytes() + " bytes is not a whole number of " + etype + "-byte etypes");
        }
        return new Prepared(layout, memType, layout.bytes() / etype);
    }

    private IoStatus transfer(IoOp op, Positioning positioning, boolean collective, long position, Prepared p, Object buf) throws MPIIOException {
        ExtentList extents;
        ByteBuffer data;
        try {
            extents = view.extents(position, p.layout.bytes());
            data = op == IoOp.WRITE ? p.layout.pack(buf) : p.layout.receiveBuffer(buf);
        } catch (RuntimeException e) {
            if (collective) abstain();
            throw translate(e, op.name().toLowerCase() + " at view position " + position, coll.rank());
        }
        long moved;
        try {
            IoCall call = IoCall.data(context, op, positioning, collective, extents, data);
            moved = collective ? chain.execute(call, engine) : chain.execute(call);
        } catch (IOException | RuntimeException e) {
            throw translate(e, op.name().toLowerCase() + " at view position " + position, coll.rank());
        }
        if (op == IoOp.READ) p.layout.unpack(data, buf, moved);
        return new IoStatus(moved, p.memType.elementBytes());
    }

    private IoStatus bufferAccess(IoOp op, long offset, ByteBuffer buf) throws MPIException {
        if (buf == null) throw new MPIIOException(ErrorClass.ERR_ARG, name + ": buffer is null");
        ensureOpen(op.name().toLowerCase());
        if (op == IoOp.READ && (amode & MPIIO.MODE_WRONLY) != 0) throw new MPIIOException(ErrorClass.ERR_ACCESS, name + ": read of a MODE_WRONLY file");
        if (op == IoOp.WRITE && (amode & MPIIO.MODE_RDONLY) != 0) throw new MPIIOException(ErrorClass.ERR_READ_ONLY, name + ": write to a MODE_RDONLY file");
        if (offset < 0) throw new MPIIOException(ErrorClass.ERR_ARG, name + ": offset must be >= 0, was " + offset);
        if (buf.remaining() % view.etypeBytes() != 0) throw new MPIIOException(ErrorClass.ERR_TYPE, name + ": buffer is not a whole number of etypes");
        ExtentList extents = view.extents(offset, buf.remaining());
        int start = buf.position();
        try {
            long moved = chain.execute(IoCall.data(context, op, Positioning.EXPLICIT_OFFSET, false, extents, buf));
            buf.position(Math.toIntExact(start + moved));
            return new IoStatus(moved, 1);
        } catch (IOException | RuntimeException e) {
            throw translate(e, op.name().toLowerCase() + " at " + offset, coll.rank());
        }
    }

    private IoRequest nonblocking(IoOp op, long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        Prepared p = prepare(op, Positioning.EXPLICIT_OFFSET, offset, buf, bufOffset, count, type);
        synchronized (this) {
            if (background == null) {
                background = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "pdla-io-" + name);
                    t.setDaemon(true);
                    return t;
                });
            }
        }
        return new IoRequest(background.submit(() -> transfer(op, Positioning.EXPLICIT_OFFSET, false, offset, p, buf)));
    }

    private IoStatus ordered(IoOp op, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        ensureOpen(op == IoOp.READ ? "readOrdered" : "writeOrdered");
        Prepared p = null;
        MPIIOException local = null;
        try {
            p = prepare(op, Positioning.SHARED_POINTER, 0, buf, bufOffset, count, type);
        } catch (MPIIOException e) {
            local = e;
        }
        coll.agree(local, name);
        long[] sizes = coll.allgather(p.etypes);
        long total = 0, before = 0;
        for (int r = 0; r < sizes.length; r++) {
            if (r < coll.rank()) before += sizes[r];
            total += sizes[r];
        }
        long[] base = new long[1];
        if (coll.rank() == 0) {
            try {
                base[0] = sharedPointer.fetchAndAdd(total);
            } catch (IOException e) {
                local = translate(e, "ordered access (shared pointer)", 0);
            }
        }
        coll.agree(local, name);
        coll.bcast(base);
        IoStatus status = null;
        try {
            status = transfer(op, Positioning.SHARED_POINTER, true, base[0] + before, p, buf);
        } catch (MPIIOException e) {
            local = e;
        }
        coll.agree(local, name);
        return status;
    }

    private long target(long offset, int whence, long current, String what) throws MPIIOException {
        long base;
        switch (whence) {
            case MPIIO.SEEK_SET -> base = 0;
            case MPIIO.SEEK_CUR -> base = current;
            case MPIIO.SEEK_END -> {
                try {
                    base = view.positionAtFileSize(storage.size());
                } catch (IOException e) {
                    throw translate(e, what, coll.rank());
                }
            }
            default -> throw new MPIIOException(ErrorClass.ERR_ARG, name + ": " + what + ": unknown whence " + whence + " (SEEK_SET, SEEK_CUR or SEEK_END)");
        }
        long target = base + offset;
        if (target < 0) throw new MPIIOException(ErrorClass.ERR_ARG, name + ": " + what + " to negative position " + target);
        return target;
    }

    private void notifySeek(long position, boolean collective) throws MPIIOException {
        try {
            chain.execute(IoCall.meta(context, IoOp.SEEK, collective, view.byteOffset(position)));
        } catch (IOException | RuntimeException e) {
            throw translate(e, "seek", coll.rank());
        }
    }

    private void ensureOpen(String what) throws MPIIOException {
        if (closed) throw new MPIIOException(ErrorClass.ERR_FILE, name + ": " + what + " on a closed file handle");
    }

    /** For tests and tools of this module: the per-file context interceptors see. */
    FileContext context() {
        return context;
    }

    private MPIIOException translate(Exception e, String what, int rank) {
        return translate(e, what, name, rank);
    }

    static MPIIOException translate(Exception e, String what, String file, int rank) {
        if (e instanceof MPIIOException m) return m;
        ErrorClass ec = ErrorClass.ERR_IO;
        if (e instanceof StorageException se) {
            ec = switch (se.reason()) {
                case NO_SUCH_FILE -> ErrorClass.ERR_NO_SUCH_FILE;
                case FILE_EXISTS -> ErrorClass.ERR_FILE_EXISTS;
                case ACCESS_DENIED -> ErrorClass.ERR_ACCESS;
                case NO_SPACE -> ErrorClass.ERR_NO_SPACE;
                case READ_ONLY -> ErrorClass.ERR_READ_ONLY;
                case UNSUPPORTED -> ErrorClass.ERR_UNSUPPORTED_OPERATION;
                case BAD_ARGUMENT -> ErrorClass.ERR_ARG;
                case IO -> ErrorClass.ERR_IO;
            };
        }
        String who = rank >= 0 ? "rank " + rank + ": " : "";
        return new MPIIOException(ec, file + ": " + who + what + ": " + e.getMessage(), e);
    }

    private static RankExchange leaving(SharedMemoryExchange notAll, RankExchange instead) {
        notAll.leave();
        return instead;
    }

    /** What this rank's collective calls on this file did (two-phase or not, rounds, aggregator I/O). */
    public CollectiveStatistics collectiveStatistics() {
        return engine.statistics();
    }

    /** The ranks (of the file's communicator) that aggregate for collective calls. */
    public int[] aggregatorRanks() {
        return engine.aggregatorRanks();
    }

    private static void closeQuietly(StorageFile f) {
        if (f == null) return;
        try {
            f.close();
        } catch (IOException ignored) {
            // already failing; the first error is the one reported
        }
    }

    @Override
    public String toString() {
        return "File[" + name + (closed ? ", closed" : "") + "]";
    }

}
