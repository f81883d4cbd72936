package io.pdla.mpiio;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.IoCall;
import mpi.Comm;
import mpi.Datatype;
import mpi.Group;
import mpi.MPIException;

import io.pdla.collective.CollectiveStatistics;

import java.io.IOException;
import java.nio.ByteBuffer;

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
// This class holds the bindings only, as ROMIO's mpi-io/ layer does: the handle's state is an OpenFile
// (built by OpenProtocol), data calls go through the AccessFunnel, the other collective calls through
// CollectiveProtocols, and failures become error classes in ErrorMapping.
public final class File {
    private final OpenFile file;
    private final AccessFunnel funnel;
    private final CollectiveProtocols protocols;

    /** MPI_File_open with no hints. Collective over {@code comm}. */
    public File(Comm comm, String filename, int amode) throws MPIException {
        this(comm, filename, amode, new Info());
    }

    /** MPI_File_open. Collective over {@code comm}; every rank must pass the same name and amode. */
    public File(Comm comm, String filename, int amode, Info info) throws MPIException {
        OpenFile opened;
        try {
            opened = OpenProtocol.open(comm, filename, amode, info);
        } catch (MPIIOException e) {
            FileErrhandler.defaultHandler().handle(null, e);
            throw e;
        }
        this.file = opened;
        this.funnel = new AccessFunnel(file);
        this.protocols = new CollectiveProtocols(file, funnel);
    }

    // ---------------------------------------------------------------- file management

    /** MPI_File_close. Collective. */
    public void close() throws MPIException {
        try {
            protocols.close();
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    /** MPI_File_delete. Not collective. */
    public static void delete(String filename) throws MPIException {
        delete(filename, new Info());
    }

    public static void delete(String filename, Info info) throws MPIException {
        OpenProtocol.delete(filename);
    }

    /** MPI_File_get_size: bytes. */
    public long getSize() throws MPIException {
        file.ensureOpen("getSize");
        return file.size("getSize");
    }

    /** MPI_File_set_size. Collective; every rank must pass the same size. */
    public void setSize(long size) throws MPIException {
        handledVoid(() -> {
            protocols.resize(size, false);
            return null;
        });
    }

    /** MPI_File_preallocate. Collective; makes the file at least {@code size} bytes. */
    public void preallocate(long size) throws MPIException {
        handledVoid(() -> {
            protocols.resize(size, true);
            return null;
        });
    }

    /** MPI_File_sync. Collective. */
    public void sync() throws MPIException {
        handledVoid(() -> {
            protocols.sync();
            return null;
        });
    }

    public int getAmode() throws MPIException {
        file.ensureOpen("getAmode");
        return file.amode();
    }

    /** The group of the communicator the file was opened on. */
    public Group getGroup() throws MPIException {
        file.ensureOpen("getGroup");
        return file.coll().comm().Group();
    }

    /** The hints in effect, including those interceptors and drivers read. */
    public Info getInfo() throws MPIException {
        file.ensureOpen("getInfo");
        return file.hints().info();
    }

    /** MPI_File_set_info. Collective; new hints are added to those in effect. */
    public void setInfo(Info info) throws MPIException {
        handledVoid(() -> {
            protocols.setInfo(info);
            return null;
        });
    }

    // ---------------------------------------------------------------- views

    /** MPI_File_set_view with MPJ datatypes. Collective. */
    public void setView(long disp, Datatype etype, Datatype filetype, String datarep, Info info) throws MPIException {
        handledVoid(() -> {
            protocols.setView(disp, etype, filetype, datarep, info);
            return null;
        });
    }

    /** MPI_File_set_view with pdla's flattened types ({@link Datatypes#subarray}, ...). Collective. */
    public void setView(long disp, FileType etype, FileType filetype, String datarep, Info info) throws MPIException {
        handledVoid(() -> {
            protocols.setView(disp, etype, filetype, datarep, info);
            return null;
        });
    }

    public FileView getView() throws MPIException {
        file.ensureOpen("getView");
        return file.view();
    }

    // ---------------------------------------------------------------- explicit offsets

    public IoStatus readAt(long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        try {
            return funnel.independentArray(IoOp.READ, Positioning.EXPLICIT_OFFSET, offset, buf, bufOffset, count, type);
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    public IoStatus writeAt(long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        try {
            return funnel.independentArray(IoOp.WRITE, Positioning.EXPLICIT_OFFSET, offset, buf, bufOffset, count, type);
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    public IoStatus readAtAll(long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        try {
            return funnel.collectiveArray(IoOp.READ, Positioning.EXPLICIT_OFFSET, offset, buf, bufOffset, count, type);
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    public IoStatus writeAtAll(long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        try {
            return funnel.collectiveArray(IoOp.WRITE, Positioning.EXPLICIT_OFFSET, offset, buf, bufOffset, count, type);
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    /** Reads {@code buf.remaining()} bytes at a byte-etype offset into a {@link ByteBuffer}. */
    public IoStatus readAt(long offset, ByteBuffer buf) throws MPIException {
        try {
            return funnel.independentBuffer(IoOp.READ, Positioning.EXPLICIT_OFFSET, offset, buf);
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    public IoStatus writeAt(long offset, ByteBuffer buf) throws MPIException {
        try {
            return funnel.independentBuffer(IoOp.WRITE, Positioning.EXPLICIT_OFFSET, offset, buf);
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    public IoRequest iReadAt(long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return handled(() -> funnel.nonblocking(IoOp.READ, Positioning.EXPLICIT_OFFSET, offset, funnel.array(buf, bufOffset, count, type)));
    }

    public IoRequest iWriteAt(long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return handled(() -> funnel.nonblocking(IoOp.WRITE, Positioning.EXPLICIT_OFFSET, offset, funnel.array(buf, bufOffset, count, type)));
    }

    // ---------------------------------------------------------------- individual file pointer

    public IoStatus read(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        try {
            return funnel.independentArray(IoOp.READ, Positioning.INDIVIDUAL_POINTER, -1, buf, bufOffset, count, type);
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    public IoStatus write(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        try {
            return funnel.independentArray(IoOp.WRITE, Positioning.INDIVIDUAL_POINTER, -1, buf, bufOffset, count, type);
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    public IoStatus readAll(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        try {
            return funnel.collectiveArray(IoOp.READ, Positioning.INDIVIDUAL_POINTER, -1, buf, bufOffset, count, type);
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    public IoStatus writeAll(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        try {
            return funnel.collectiveArray(IoOp.WRITE, Positioning.INDIVIDUAL_POINTER, -1, buf, bufOffset, count, type);
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    /** MPI_File_seek on the individual pointer; {@code offset} in etypes. */
    public void seek(long offset, int whence) throws MPIException {
        file.ensureOpen("seek");
        noIndividualPointerIfSequential("seek");
        file.movePointer(file.seekTarget(offset, whence, file.pointer(), "seek"));
        file.seeked(file.pointer(), false);
    }

    public long getPosition() throws MPIException {
        file.ensureOpen("getPosition");
        noIndividualPointerIfSequential("getPosition");
        return file.pointer();
    }

    /** MPI forbids individual file pointers on MODE_SEQUENTIAL files; ROMIO's class (MPI_ERR_UNSUPPORTED_OPERATION, "**ioamodeseq"). */
    private void noIndividualPointerIfSequential(String call) throws MPIIOException {
        if (file.opened(MPIIO.MODE_SEQUENTIAL)) {
            throw new MPIIOException(ErrorClass.ERR_UNSUPPORTED_OPERATION, file.name() + ": " + call + ": a MODE_SEQUENTIAL file has no individual file pointer");
        }
    }

    /** MPI_File_get_byte_offset: the absolute byte offset of a view position. */
    public long getByteOffset(long position) throws MPIException {
        file.ensureOpen("getByteOffset");
        noIndividualPointerIfSequential("getByteOffset");
        if (position < 0) throw new MPIIOException(ErrorClass.ERR_ARG, file.name() + ": getByteOffset position must be >= 0, was " + position);
        return file.view().byteOffset(position);
    }

    // ---------------------------------------------------------------- shared file pointer

    public IoStatus readShared(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        try {
            return funnel.independent(IoOp.READ, Positioning.SHARED_POINTER, -1, funnel.array(buf, bufOffset, count, type));
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    public IoStatus writeShared(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        try {
            return funnel.independent(IoOp.WRITE, Positioning.SHARED_POINTER, -1, funnel.array(buf, bufOffset, count, type));
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    /** MPI_File_read_ordered: collective, ranks read one after another in rank order from the shared pointer. */
    public IoStatus readOrdered(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        try {
            return protocols.ordered(IoOp.READ, funnel.array(buf, bufOffset, count, type));
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    public IoStatus writeOrdered(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        try {
            return protocols.ordered(IoOp.WRITE, funnel.array(buf, bufOffset, count, type));
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    /** MPI_File_seek_shared. Collective; every rank must pass the same offset and whence. */
    public void seekShared(long offset, int whence) throws MPIException {
        handledVoid(() -> {
            protocols.seekShared(offset, whence);
            return null;
        });
    }

    public long getPositionShared() throws MPIException {
        file.ensureOpen("getPositionShared");
        try {
            return file.sharedPointer().get();
        } catch (IOException e) {
            throw file.translate(e, "getPositionShared");
        }
    }


    // ---------------------------------------------------------------- nonblocking, individual and shared pointers

    /** MPI_File_iread: the individual pointer moves now past the whole request, the bytes in the background. */
    public IoRequest iRead(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return handled(() -> funnel.nonblocking(IoOp.READ, Positioning.INDIVIDUAL_POINTER, -1, funnel.array(buf, bufOffset, count, type)));
    }

    public IoRequest iWrite(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return handled(() -> funnel.nonblocking(IoOp.WRITE, Positioning.INDIVIDUAL_POINTER, -1, funnel.array(buf, bufOffset, count, type)));
    }

    /** MPI_File_iread_shared: the shared pointer moves now, the bytes in the background. */
    public IoRequest iReadShared(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return handled(() -> funnel.nonblocking(IoOp.READ, Positioning.SHARED_POINTER, -1, funnel.array(buf, bufOffset, count, type)));
    }

    public IoRequest iWriteShared(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return handled(() -> funnel.nonblocking(IoOp.WRITE, Positioning.SHARED_POINTER, -1, funnel.array(buf, bufOffset, count, type)));
    }

    // ---------------------------------------------------------------- nonblocking collectives (MPI 3.1)

    /** MPI_File_iread_all: returns at once; the collective runs on the file's collective thread, in call order. */
    public IoRequest iReadAll(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return handled(() -> funnel.nonblockingCollective(IoOp.READ, Positioning.INDIVIDUAL_POINTER, -1, funnel.array(buf, bufOffset, count, type)));
    }

    public IoRequest iWriteAll(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return handled(() -> funnel.nonblockingCollective(IoOp.WRITE, Positioning.INDIVIDUAL_POINTER, -1, funnel.array(buf, bufOffset, count, type)));
    }

    public IoRequest iReadAtAll(long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return handled(() -> funnel.nonblockingCollective(IoOp.READ, Positioning.EXPLICIT_OFFSET, offset, funnel.array(buf, bufOffset, count, type)));
    }

    public IoRequest iWriteAtAll(long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        return handled(() -> funnel.nonblockingCollective(IoOp.WRITE, Positioning.EXPLICIT_OFFSET, offset, funnel.array(buf, bufOffset, count, type)));
    }

    // ---------------------------------------------------------------- split collectives

    public void readAllBegin(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        splitBegin("readAllBegin", buf, () -> funnel.nonblockingCollective(IoOp.READ, Positioning.INDIVIDUAL_POINTER, -1, funnel.array(buf, bufOffset, count, type)));
    }

    public IoStatus readAllEnd(Object buf) throws MPIException {
        return handled(() -> SplitCollective.end(file, "readAllEnd", "readAllBegin", buf));
    }

    public void writeAllBegin(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        splitBegin("writeAllBegin", buf, () -> funnel.nonblockingCollective(IoOp.WRITE, Positioning.INDIVIDUAL_POINTER, -1, funnel.array(buf, bufOffset, count, type)));
    }

    public IoStatus writeAllEnd(Object buf) throws MPIException {
        return handled(() -> SplitCollective.end(file, "writeAllEnd", "writeAllBegin", buf));
    }

    public void readAtAllBegin(long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        splitBegin("readAtAllBegin", buf, () -> funnel.nonblockingCollective(IoOp.READ, Positioning.EXPLICIT_OFFSET, offset, funnel.array(buf, bufOffset, count, type)));
    }

    public IoStatus readAtAllEnd(Object buf) throws MPIException {
        return handled(() -> SplitCollective.end(file, "readAtAllEnd", "readAtAllBegin", buf));
    }

    public void writeAtAllBegin(long offset, Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        splitBegin("writeAtAllBegin", buf, () -> funnel.nonblockingCollective(IoOp.WRITE, Positioning.EXPLICIT_OFFSET, offset, funnel.array(buf, bufOffset, count, type)));
    }

    public IoStatus writeAtAllEnd(Object buf) throws MPIException {
        return handled(() -> SplitCollective.end(file, "writeAtAllEnd", "writeAtAllBegin", buf));
    }

    public void readOrderedBegin(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        splitBegin("readOrderedBegin", buf, () -> file.background().submitCollective(() -> protocols.ordered(IoOp.READ, funnel.array(buf, bufOffset, count, type))));
    }

    public IoStatus readOrderedEnd(Object buf) throws MPIException {
        return handled(() -> SplitCollective.end(file, "readOrderedEnd", "readOrderedBegin", buf));
    }

    public void writeOrderedBegin(Object buf, int bufOffset, int count, Datatype type) throws MPIException {
        splitBegin("writeOrderedBegin", buf, () -> file.background().submitCollective(() -> protocols.ordered(IoOp.WRITE, funnel.array(buf, bufOffset, count, type))));
    }

    public IoStatus writeOrderedEnd(Object buf) throws MPIException {
        return handled(() -> SplitCollective.end(file, "writeOrderedEnd", "writeOrderedBegin", buf));
    }

    private void splitBegin(String call, Object buf, Call<IoRequest> start) throws MPIException {
        handled(() -> {
            SplitCollective.begin(file, call);
            file.split().begun(new SplitCollective(call, start.run().reportingTo(e -> file.errhandler().handle(this, e)), buf));
            return null;
        });
    }

    // ---------------------------------------------------------------- memory described by pdla's flattened types

    /** readAt with a memory type built by {@link Datatypes} (subarray, darray, hindexedBlock...). */
    public IoStatus readAt(long offset, Object buf, int bufOffset, int count, FileType memType) throws MPIException {
        try {
            return funnel.independent(IoOp.READ, Positioning.EXPLICIT_OFFSET, offset, funnel.typed(buf, bufOffset, count, memType));
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    public IoStatus writeAt(long offset, Object buf, int bufOffset, int count, FileType memType) throws MPIException {
        try {
            return funnel.independent(IoOp.WRITE, Positioning.EXPLICIT_OFFSET, offset, funnel.typed(buf, bufOffset, count, memType));
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    public IoStatus read(Object buf, int bufOffset, int count, FileType memType) throws MPIException {
        try {
            return funnel.independent(IoOp.READ, Positioning.INDIVIDUAL_POINTER, -1, funnel.typed(buf, bufOffset, count, memType));
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    public IoStatus write(Object buf, int bufOffset, int count, FileType memType) throws MPIException {
        try {
            return funnel.independent(IoOp.WRITE, Positioning.INDIVIDUAL_POINTER, -1, funnel.typed(buf, bufOffset, count, memType));
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    public IoStatus readAll(Object buf, int bufOffset, int count, FileType memType) throws MPIException {
        try {
            return funnel.collective(IoOp.READ, Positioning.INDIVIDUAL_POINTER, -1, funnel.typed(buf, bufOffset, count, memType));
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    public IoStatus writeAll(Object buf, int bufOffset, int count, FileType memType) throws MPIException {
        try {
            return funnel.collective(IoOp.WRITE, Positioning.INDIVIDUAL_POINTER, -1, funnel.typed(buf, bufOffset, count, memType));
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    // ---------------------------------------------------------------- consistency, types, representations, errors

    /** MPI_File_set_atomicity. Collective; every rank must pass the same flag. */
    public void setAtomicity(boolean flag) throws MPIException {
        handled(() -> {
            protocols.setAtomicity(flag);
            return null;
        });
    }

    public boolean getAtomicity() throws MPIException {
        return handled(() -> {
            file.ensureOpen("getAtomicity");
            return file.atomic();
        });
    }

    /** MPI_File_get_type_extent: bytes {@code type} spans in the file in the current view's representation. */
    public long getTypeExtent(Datatype type) throws MPIException {
        return handled(() -> {
            file.ensureOpen("getTypeExtent");
            return Datatypes.flatten(type).extentBytes();
        });
    }

    /** MPI_Register_datarep: a data representation for {@link #setView}, with the application's conversions. */
    public static void registerDatarep(String name, Datarep.Conversion conversion) throws MPIException {
        Datarep.register(name, conversion);
    }

    /** MPI_File_set_errhandler. */
    public void setErrhandler(FileErrhandler handler) throws MPIException {
        file.setErrhandler(handler);
    }

    public FileErrhandler getErrhandler() {
        return file.errhandler();
    }

    /** MPI_File_set_errhandler on MPI_FILE_NULL: the handler of files opened from now on (and of failed opens). */
    public static void setDefaultErrhandler(FileErrhandler handler) {
        FileErrhandler.setDefault(handler);
    }

    public static FileErrhandler getDefaultErrhandler() {
        return FileErrhandler.defaultHandler();
    }

    /** MPI_File_call_errhandler. */
    public void callErrhandler(MPIIOException error) {
        file.errhandler().handle(this, error);
    }

    @FunctionalInterface
    private interface Call<T> {
        T run() throws MPIException;
    }

    /**
     * Every binding runs here: a failure goes to the handle's error handler, and a runtime exception that
     * escaped the layers below becomes an MPIIOException (ERR_OTHER) instead of reaching the caller raw.
     */
    private <T> T handled(Call<T> call) throws MPIException {
        try {
            T result = call.run();
            if (result instanceof IoRequest r) r.reportingTo(e -> file.errhandler().handle(this, e));
            return result;
        } catch (RuntimeException e) { // MPIIOException is one
            throw reported(e);
        }
    }

    /**
     * What {@link #handled} does with a failure, for the blocking data calls, which catch into it instead of passing
     * a lambda: a lambda's call site is linked (a hidden class made) at its first call in each rank's class loader,
     * a cost every rank paid again on its first read and write. The handle's error handler sees the failure; a
     * runtime exception that escaped the layers below becomes an MPIIOException (ERR_OTHER).
     */
    private MPIIOException reported(RuntimeException e) throws MPIException {
        if (e instanceof MPIIOException m) {
            file.errhandler().handle(this, m);
            return m;
        }
        MPIIOException m = new MPIIOException(ErrorClass.ERR_OTHER, file.name() + ": rank " + file.coll().rank() + ": " + e, e);
        file.errhandler().handle(this, m);
        return m;
    }

    private void handledVoid(Call<Void> call) throws MPIException {
        handled(call);
    }

    /** For tests and tools of this module: the per-file context interceptors see. */
    FileContext context() {
        return file.context();
    }

    /** What this rank's collective calls on this file did (two-phase or not, rounds, aggregator I/O). */
    public CollectiveStatistics collectiveStatistics() {
        return file.engine().statistics();
    }

    /** The ranks (of the file's communicator) that aggregate for collective calls. */
    public int[] aggregatorRanks() {
        return file.engine().aggregatorRanks();
    }

    @Override
    public String toString() {
        return "File[" + file.name() + (file.isClosed() ? ", closed" : "") + "]";
    }
}
