package io.pdla.mpiio;

import io.pdla.intercept.DataPathException;

import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.storage.sieve.SievingSettings;
import mpi.Datatype;
import mpi.MPIException;

import java.io.IOException;
import java.util.Map;

/**
 * The collective calls of an open file other than data access, and ordered access, each on top of
 * {@link Collective}: a step that can fail on some ranks is followed by an agreement, so all ranks succeed
 * or all raise the same class; a value MPI requires to be the same everywhere is checked (ERR_NOT_SAME);
 * and shared state (the file size, the shared pointer) is changed by rank 0 alone between barriers.
 */
final class CollectiveProtocols {
    private final OpenFile file;
    private final AccessFunnel funnel;

    CollectiveProtocols(OpenFile file, AccessFunnel funnel) {
        this.file = file;
        this.funnel = funnel;
    }

    /**
     * MPI_File_close: drains nonblocking requests, closes on every rank, rank 0 removes what is shared. One meeting
     * agrees on the outcome and, for chains that hold a close vote, carries the votes; a second one follows the
     * collective close work when some rank asked for it (and, in a voting chain, a delete on close); a delete on close
     * adds the meeting that agrees on its outcome.
     */
    void close() throws MPIException {
        file.ensureOpen("close");
        Collective coll = file.coll();
        MPIIOException local = file.background().drain();
        file.split().forget();
        boolean votes = file.chain().votesAtClose(file.context());
        boolean deleting = file.opened(MPIIO.MODE_DELETE_ON_CLOSE);
        try {
            file.engine().closing(file.context());   // a background read-ahead ends before the interceptors and the store close
        } catch (RuntimeException e) {
            System.err.println("pdla: telling the interceptors of a background read failed closing " + file.name() + " on rank " + coll.rank() + ": " + e);
        }
        try {
            file.chain().closing(file.context(), !votes);   // a voting chain's interceptors keep their state for closeAgreed
        } catch (DataPathException e) {
            if (local == null) local = file.translate(e, "close");   // the application's bytes: its close reports it
        } catch (IOException | RuntimeException e) {
            // Interceptors are best-effort; the application's close still succeeds.
            System.err.println("pdla: interceptor failed closing " + file.name() + " on rank " + coll.rank() + ": " + e);
        }
        try {
            file.storage().close();
        } catch (IOException | RuntimeException e) {
            // caught whatever it is: the meeting below must still be held, or the delegates would never write back
            if (local == null) local = file.translate(e, "close");
        }
        boolean closedHere = local == null;
        if (closedHere && !votes) tellClosed(coll);
        file.markClosed();
        RankState.closed(file.uri());
        try {
            file.sharedPointer().close();
        } catch (IOException ignored) {
            // the side file is removed below by rank 0 in any case
        }
        // Each meeting costs the waiting ranks a wake-up (ms on a loaded machine, as at open): an idle close holds one
        try {
            long[] all = coll.allgather(new long[]{Collective.outcome(local), votes && ask(coll, file.chain()::needsCollectiveClose) ? 1 : 0,
                    votes && ask(coll, file.chain()::meetsAfterClosed) ? 1 : 0});
            MPIIOException late = null;
            long[] after = null;
            if (votes) {
                boolean anyVote = coll.anyRank(all, 3, 1), anyAfter = coll.anyRank(all, 3, 2);
                AgreedWork work = agreedWork(coll, anyVote);
                late = work.error();
                // a write-back that did not happen must not be vouched for by what the closed hooks record, nor
                // lose redirect's marker of the writes the delegates may still hold: the state is kept then
                if (!work.failed()) {
                    releaseStore(coll);
                    if (closedHere) tellClosed(coll);
                }
                if (anyVote || anyAfter || deleting) {
                    // what the agreed work and the closed hooks did (write-back, a write session's end) is done on every
                    // rank before any leaves close, reopens or deletes the file; its outcome is agreed (a delegate that
                    // timed out on one rank may have answered the others)
                    after = coll.allgather(new long[]{Collective.outcome(late)});
                }
            }
            if (deleting) {
                // every rank closed it (and did its close work: the meetings above); the deletion's outcome is agreed below
                if (coll.rank() == 0) {
                    try {
                        file.driver().delete(file.uri());
                    } catch (IOException e) {
                        if (local == null) local = file.translate(e, "delete on close");
                    }
                }
                coll.agree(local != null ? local : late, file.name());
            } else {
                coll.agree(all, 3, 0, local, file.name());
                if (after != null) coll.agree(after, 1, 0, late, file.name());
                else if (late != null) throw late;
            }
        } finally {
            // after the first meeting every rank has closed its channel to the side file
            if (coll.rank() == 0) {
                try {
                    file.sharedPointer().delete();
                } catch (IOException ignored) {
                    // a leftover side file in the temporary directory is harmless
                }
            }
            file.exchange().leave();
        }
        // (a voting chain whose ranks could not meet keeps its interceptors' state: releasing it would let redirect
        // drop the marker of a write the delegates may still hold unwritten)
        coll.free();
    }

    /**
     * A voting chain's interceptors' state, kept for {@link #agreedWork}. Its failure is only logged: nothing of the
     * application's data depends on it once the agreed work succeeded, and it comes after the meeting that could agree.
     */
    private void releaseStore(Collective coll) {
        try {
            file.chain().releaseStore(file.context());
        } catch (IOException | RuntimeException e) {
            System.err.println("pdla: interceptor failed closing " + file.name() + " on rank " + coll.rank() + ": " + e);
        }
    }

    private void tellClosed(Collective coll) {
        try {
            file.chain().closed(file.context());
        } catch (IOException | RuntimeException e) {
            System.err.println("pdla: interceptor failed after closing " + file.name() + " on rank " + coll.rank() + ": " + e);
        }
    }

    /**
     * One of this rank's close votes ({@link io.pdla.intercept.IoInterceptor#needsCollectiveClose},
     * {@link io.pdla.intercept.IoInterceptor#meetsAfterClosed}); an interceptor that fails to answer votes yes.
     */
    private boolean ask(Collective coll, java.util.function.Predicate<io.pdla.intercept.FileContext> vote) {
        try {
            return vote.test(file.context());
        } catch (RuntimeException e) {
            System.err.println("pdla: interceptor failed voting at close of " + file.name() + " on rank " + coll.rank() + ": " + e);
            return true;   // the safe side: the work is done, as if the interceptor had asked for it
        }
    }

    /** What the collective close work came to: the error the application's close must report, if any, and whether it failed at all. */
    private record AgreedWork(MPIIOException error, boolean failed) {
        static final AgreedWork DONE = new AgreedWork(null, false);
    }

    /**
     * The collective close work of a chain that holds a close vote, on every rank, after the close meeting that ORed
     * the votes and before the {@code closed} hooks: the delegates' write-back of the open's pages, and what must
     * follow it (redirect making those bytes durable before its write session ends). A failure on the application's
     * data path ({@link DataPathException}) is the error the application's close reports; any other is logged.
     */
    private AgreedWork agreedWork(Collective coll, boolean anyVote) {
        try {
            file.chain().closeAgreed(file.context(), anyVote);
            return AgreedWork.DONE;
        } catch (DataPathException e) {
            return new AgreedWork(file.translate(e, "close"), true);   // the delegates' write-back of the application's bytes failed
        } catch (IOException | RuntimeException e) {
            System.err.println("pdla: interceptor failed in the collective part of closing " + file.name() + " on rank " + coll.rank() + ": " + e);
            return new AgreedWork(null, true);
        }
    }

    /** MPI_File_set_size ({@code onlyGrow} false) and MPI_File_preallocate (true): rank 0 resizes. */
    void resize(long size, boolean onlyGrow) throws MPIException {
        String what = onlyGrow ? "preallocate" : "setSize";
        file.ensureOpen(what);
        file.background().awaitCollectives();
        Collective coll = file.coll();
        MPIIOException local = null;
        if (size < 0) local = new MPIIOException(ErrorClass.ERR_ARG, file.name() + ": rank " + coll.rank() + ": " + what + " size must be >= 0, was " + size);
        else if (file.opened(MPIIO.MODE_RDONLY)) local = new MPIIOException(ErrorClass.ERR_READ_ONLY, file.name() + ": " + what + " on a file opened MODE_RDONLY");
        else if (file.opened(MPIIO.MODE_SEQUENTIAL)) local = new MPIIOException(ErrorClass.ERR_UNSUPPORTED_OPERATION, file.name() + ": " + what + " on a MODE_SEQUENTIAL file");
        coll.agree(local, file.name());
        coll.requireSame(size, what + " size", file.name());
        if (coll.rank() == 0) {
            try {
                if (!onlyGrow) file.meta(IoOp.SET_SIZE, true, size);
                else if (file.storage().size() < size) {
                    // blocks for real first; the SET_SIZE that follows changes nothing but lets interceptors see the growth
                    file.storage().preallocate(size);
                    file.meta(IoOp.SET_SIZE, true, size);
                }
            } catch (IOException | RuntimeException e) {
                local = file.translate(e, what);
            }
        }
        coll.agree(local, file.name());
    }

    /** MPI_File_sync: every rank flushes through the chain. */
    void sync() throws MPIException {
        file.ensureOpen("sync");
        file.background().awaitCollectives();
        MPIIOException local = null;
        try {
            file.meta(IoOp.SYNC, true, 0);
        } catch (IOException | RuntimeException e) {
            local = file.translate(e, "sync");
        }
        file.coll().agree(local, file.name());
    }

    /** MPI_File_set_info: new hints join those in effect on every rank, or on none. */
    void setInfo(Info info) throws MPIException {
        file.ensureOpen("setInfo");
        file.background().awaitCollectives();
        MPIIOException local = null;
        if (info != null) {
            local = applyHints(info.asMap(), "setInfo");
        }
        file.coll().agree(local, file.name());
    }

    /** Merges hints after validating the collective-buffering ones; an invalid one changes nothing. */
    private MPIIOException applyHints(Map<String, String> more, String what) {
        Map<String, String> merged = file.hints().givenWith(more);
        try {
            SievingSettings.fromHints(merged); // taken at open; a bad new value is still an error
            file.engine().reconfigure(merged);
        } catch (IllegalArgumentException e) {
            return ErrorMapping.badArgument(file.name() + ": rank " + file.coll().rank() + ": " + what + ": ", e);
        }
        file.hints().add(more, file.engine().settings().effective());
        return null;
    }

    /** MPI_File_set_view with MPJ datatypes: flattened here, so a bad one fails on its rank and all agree. */
    void setView(long disp, Datatype etype, Datatype filetype, String datarep, Info info) throws MPIException {
        file.ensureOpen("setView");
        MPIIOException local = null;
        FileType e = null, f = null;
        try {
            // ROMIO's class for a missing etype or filetype ("**ioetype", "**iofiletype"); MPI names none
            if (etype == null || filetype == null) throw new MPIIOException(ErrorClass.ERR_ARG, (etype == null ? "etype" : "filetype") + " is null");
            e = Datatypes.flatten(etype);
            f = Datatypes.flatten(filetype);
        } catch (MPIIOException ex) {
            local = new MPIIOException(ex.errorClass(), file.name() + ": rank " + file.coll().rank() + ": setView: " + ex.getMessage(), ex);
        }
        install(disp, e, f, datarep, info, local);
    }

    /** MPI_File_set_view with pdla's flattened types. */
    void setView(long disp, FileType etype, FileType filetype, String datarep, Info info) throws MPIException {
        file.ensureOpen("setView");
        install(disp, etype, filetype, datarep, info, null);
    }

    /**
     * Checks the view (unless a rank already failed flattening it), then every rank installs it and resets
     * both pointers to 0 (rank 0 resets the shared one after all have stopped using the old view).
     */
    private void install(long disp, FileType etype, FileType filetype, String datarep, Info info, MPIIOException local) throws MPIException {
        file.background().awaitCollectives();
        Collective coll = file.coll();
        if (local == null) local = viewError(disp, etype, filetype, datarep);
        coll.agree(local, file.name());
        coll.requireSame(etype.sizeBytes(), "etype size", file.name());
        if (disp == MPIIO.DISPLACEMENT_CURRENT) disp = currentDisplacement();
        file.installView(new FileView(disp, etype, filetype, datarep));
        MPIIOException sp = info != null ? applyHints(info.asMap(), "setView") : null;
        coll.barrier();
        if (coll.rank() == 0) {
            try {
                file.sharedPointer().set(0);
            } catch (IOException e) {
                sp = file.translate(e, "setView (shared pointer)");
            }
        }
        try {
            file.meta(IoOp.SET_VIEW, true, disp);
        } catch (IOException | RuntimeException e) {
            if (sp == null) sp = file.translate(e, "setView");
        }
        coll.agree(sp, file.name());
    }

    /**
     * MPI_DISPLACEMENT_CURRENT: the byte offset, in the view being replaced, of the shared file pointer, read after
     * every rank has stopped moving it (ROMIO: a barrier, then each rank reads it).
     */
    private long currentDisplacement() throws MPIException {
        file.coll().barrier();
        long disp = -1;
        MPIIOException failed = null;
        try {
            disp = file.view().byteOffset(file.sharedPointer().get());
        } catch (IOException | RuntimeException e) {
            failed = file.translate(e, "setView (MPI_DISPLACEMENT_CURRENT: shared pointer)");
        }
        file.coll().agree(failed, file.name());
        return disp;
    }

    /**
     * What MPI 4.1 §14.3 requires of a view; null if it is one. Where MPI names no error class, ROMIO's
     * (MPIR_File_set_view_impl, ADIO_Set_view): the table in mpiio-shim/README.md lists each case.
     */
    private MPIIOException viewError(long disp, FileType etype, FileType filetype, String datarep) {
        String where = file.name() + ": rank " + file.coll().rank() + ": setView: ";
        boolean sequential = file.opened(MPIIO.MODE_SEQUENTIAL);
        if (disp < 0 && disp != MPIIO.DISPLACEMENT_CURRENT) return new MPIIOException(ErrorClass.ERR_ARG, where + "displacement must be >= 0, was " + disp);
        if (sequential && disp != MPIIO.DISPLACEMENT_CURRENT) return new MPIIOException(ErrorClass.ERR_ARG, where + "displacement " + disp
                + ": a file opened MODE_SEQUENTIAL takes MPIIO.DISPLACEMENT_CURRENT only");
        if (!sequential && disp == MPIIO.DISPLACEMENT_CURRENT) return new MPIIOException(ErrorClass.ERR_ARG, where
                + "MPIIO.DISPLACEMENT_CURRENT is for files opened MODE_SEQUENTIAL only");
        if (etype == null || filetype == null) return new MPIIOException(ErrorClass.ERR_ARG, where + "etype and filetype are required");
        if (filetype.sizeBytes() % Math.max(1, etype.sizeBytes()) != 0) return new MPIIOException(ErrorClass.ERR_ARG, where + "filetype size "
                + filetype.sizeBytes() + " is not a multiple of the etype size " + etype.sizeBytes());
        if (Datarep.named(datarep) == null) return new MPIIOException(ErrorClass.ERR_UNSUPPORTED_DATAREP, where + "datarep '" + datarep
                + "' (native, internal, external32 or one registered with File.registerDatarep)");
        if (etype.sizeBytes() == 0) return new MPIIOException(ErrorClass.ERR_TYPE, where + "etype has size 0");
        // ROMIO's check_type: MPI_ERR_IO ("**iobadoverlap") for negative and decreasing displacements in every access
        // mode, and for overlapping regions only when the file is open for writing (MPI forbids overlap only there)
        boolean writing = !file.opened(MPIIO.MODE_RDONLY);
        for (int k = 0; k < 2; k++) {
            FileType t = k == 0 ? etype : filetype;
            String kind = k == 0 ? "etype" : "filetype";
            if (t.hasNegativeDisplacement()) return new MPIIOException(ErrorClass.ERR_IO, where + "displacements of " + kind + " must be non-negative");
            if (t.hasDecreasingDisplacement()) return new MPIIOException(ErrorClass.ERR_IO, where + "displacements of " + kind
                    + " must be in a monotonically nondecreasing order");
            if (writing && t.overlaps()) return new MPIIOException(ErrorClass.ERR_IO, where + kind
                    + " is not permitted to contain overlapping regions (the file is open for writing)");
        }
        // copies of the filetype overlapping one another: the same overlap for a file open for writing
        if (writing && filetype.extentBytes() < filetype.sizeBytes()) return new MPIIOException(ErrorClass.ERR_IO, where + "filetype extent "
                + filetype.extentBytes() + " smaller than its size " + filetype.sizeBytes() + ": its copies overlap (the file is open for writing)");
        return null;
    }

    /**
     * MPI_File_read_ordered / write_ordered: the ranks all-gather their sizes, rank 0 advances the shared
     * pointer once by the total, and each rank accesses at the old value plus the sizes of the ranks before it.
     */
    IoStatus ordered(IoOp op, AccessFunnel.Memory memory) throws MPIException {
        file.ensureOpen(op == IoOp.READ ? "readOrdered" : "writeOrdered");
        file.background().awaitCollectives();
        Collective coll = file.coll();
        AccessFunnel.Access access = null;
        MPIIOException local = null;
        try {
            access = funnel.validate(op, Positioning.SHARED_POINTER, 0, memory);
        } catch (MPIIOException e) {
            local = e;
        }
        coll.agree(local, file.name());
        long[] sizes = coll.allgather(access.etypes());
        long total = 0, before = 0;
        for (int r = 0; r < sizes.length; r++) {
            if (r < coll.rank()) before += sizes[r];
            total += sizes[r];
        }
        long[] base = new long[1];
        if (coll.rank() == 0) {
            try {
                base[0] = file.sharedPointer().fetchAndAdd(total);
            } catch (IOException e) {
                local = file.translate(e, "ordered access (shared pointer)");
            }
        }
        coll.agree(local, file.name());
        coll.bcast(base);
        IoStatus status = null;
        try {
            status = funnel.transfer(access, base[0] + before, true);
        } catch (MPIIOException e) {
            local = e;
        }
        coll.agree(local, file.name());
        return status;
    }

    /**
     * MPI_File_set_atomicity: every rank must pass the same flag; atomic mode needs byte-range locks,
     * so on a driver without them (HDFS) it is ERR_UNSUPPORTED_OPERATION on every rank and nothing changes.
     */
    void setAtomicity(boolean flag) throws MPIException {
        file.ensureOpen("setAtomicity");
        file.background().awaitCollectives();
        Collective coll = file.coll();
        coll.requireSame(flag ? 1 : 0, "setAtomicity flag", file.name());
        MPIIOException local = null;
        if (flag && !file.driver().has(io.pdla.storage.Capability.BYTE_RANGE_LOCK)) {
            local = new MPIIOException(ErrorClass.ERR_UNSUPPORTED_OPERATION, file.name() + ": rank " + coll.rank()
                    + ": setAtomicity: the file's storage driver cannot lock byte ranges, which atomic mode needs");
        }
        if (flag && local == null) {
            for (io.pdla.intercept.IoInterceptor i : file.chain().interceptors()) {
                String why = i.breaksAtomicMode(file.context());
                if (why != null) {
                    local = new MPIIOException(ErrorClass.ERR_UNSUPPORTED_OPERATION, file.name() + ": rank " + coll.rank()
                            + ": setAtomicity: " + why);
                    break;
                }
            }
        }
        coll.agree(local, file.name());
        file.setAtomic(flag);
    }

    /** MPI_File_seek_shared: all ranks compute the same target, rank 0 sets it once all have read the old. */
    void seekShared(long offset, int whence) throws MPIException {
        file.ensureOpen("seekShared");
        file.background().awaitCollectives();
        Collective coll = file.coll();
        coll.requireSame(offset, "seekShared offset", file.name());
        coll.requireSame(whence, "seekShared whence", file.name());
        MPIIOException local = null;
        long target = 0;
        try {
            target = file.seekTarget(offset, whence, file.sharedPointer().get(), "seekShared");
        } catch (MPIIOException e) {
            local = e;
        } catch (IOException e) {
            local = file.translate(e, "seekShared");
        }
        coll.agree(local, file.name());
        coll.barrier(); // everyone has read the old value before rank 0 changes it
        if (coll.rank() == 0) {
            try {
                file.sharedPointer().set(target);
            } catch (IOException e) {
                local = file.translate(e, "seekShared");
            }
        }
        coll.agree(local, file.name());
        file.seeked(target, true);
    }
}
