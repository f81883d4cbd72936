package io.pdla.mpiio;

import io.pdla.intercept.AppIdentity;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.mpiio.collective.CollectiveSetup;
import io.pdla.mpiio.collective.MpjExchange;
import io.pdla.mpiio.collective.RankExchange;
import io.pdla.mpiio.collective.SharedMemoryExchange;
import io.pdla.mpiio.collective.TwoPhaseEngine;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;
import io.pdla.storage.sieve.SievingSettings;
import io.pdla.storage.sieve.SievingStorageFile;
import mpi.Comm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * MPI_File_open as a collective protocol (ROMIO's {@code ADIO_Open}): the ranks agree on name and amode,
 * rank 0 alone creates, every rank opens, and each step that can fail on some ranks ends in an agreement, so
 * a handle exists on all ranks or on none. Also MPI_File_delete, which resolves a name the same way.
 */
final class OpenProtocol {
    private OpenProtocol() {
    }

    static OpenFile open(Comm comm, String filename, int amode, Info info) throws MPIException {
        if (!(comm instanceof Intracomm) || !SharedMemoryExchange.wholeJobInThisJvm()) return openOn(comm, filename, amode, info, null);
        SharedMemoryExchange early = SharedMemoryExchange.joinOpen((Intracomm) comm);
        try {
            return openOn(comm, filename, amode, info, early);
        } catch (RuntimeException e) { // MPIException is one
            early.leave(); // every rank failed the same step, so all of them joined
            throw e;
        }
    }

    private static OpenFile openOn(Comm comm, String filename, int amode, Info info, SharedMemoryExchange early) throws MPIException {
        if (comm == null) throw new MPIIOException(ErrorClass.ERR_ARG, "communicator is null opening " + filename);
        if (!(comm instanceof Intracomm user)) {
            throw new MPIIOException(ErrorClass.ERR_ARG, "opening " + filename + ": an intracommunicator is required, got " + comm.getClass().getName());
        }
        // When the whole job is threads of this JVM (multicore device), every step of open and of the file's
        // life meets in shared memory (early); otherwise through MPJ on a private duplicate, then in shared
        // memory once the ranks found they are all here.
        Intracomm intra = early != null ? user : (Intracomm) user.clone();
        Collective coll = early != null ? Collective.inSharedMemory(user, early) : new Collective(intra);
        int rank = coll.rank();
        String where = filename + ": rank " + rank + ": ";
        coll.requireSame(new long[]{amode, filename == null ? 0 : filename.hashCode()}, new String[]{"amode", "file name"}, String.valueOf(filename));
        checkAmode(amode, filename, rank);
        Map<String, String> hints = new LinkedHashMap<>(info == null ? Map.of() : info.asMap());
        URI uri;
        StorageDriver driver;
        try {
            uri = StorageDrivers.toUri(filename);
            driver = StorageDrivers.installed().forUri(uri);
        } catch (IllegalArgumentException e) {
            throw ErrorMapping.badArgument("rank " + rank + ": ", e);
        }
        boolean read = (amode & MPIIO.MODE_WRONLY) == 0;
        boolean write = (amode & MPIIO.MODE_RDONLY) == 0;
        boolean create = (amode & MPIIO.MODE_CREATE) != 0;
        boolean excl = (amode & MPIIO.MODE_EXCL) != 0;
        OpenOptions options = new OpenOptions(read, write, create, excl, hints);

        // Rank 0 alone creates, so that EXCL means "did not exist before this collective open"; the same
        // broadcast carries the outcome and the job-unique token that names the shared-pointer side file
        // (drawn by the shared-memory group when there is one from the start).
        UUID mine = early != null ? UUID.fromString(early.uniqueName()) : UUID.randomUUID();
        long[] outcome = {0, mine.getMostSignificantBits(), mine.getLeastSignificantBits()};
        MPIIOException createError = null;
        if (rank == 0 && create) {
            try {
                driver.open(uri, options).close();
            } catch (IOException e) {
                createError = ErrorMapping.translate(e, "open", filename, rank);
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
        SharedMemoryExchange shm = early != null ? early : SharedMemoryExchange.join(token, rank, coll.size());

        StorageFile storage = null;
        MPIIOException local = null;
        try {
            storage = openForSieving(driver, uri, options.withoutCreate(), hints);
        } catch (IOException e) {
            local = ErrorMapping.translate(e, "open", filename, rank);
        } catch (IllegalArgumentException e) {
            local = ErrorMapping.badArgument(where, e);
        }
        try {
            coll.agree(local, filename);
        } catch (MPIException e) {
            shm.leave();
            closeQuietly(storage);
            throw e;
        }
        RankExchange exchange = shm.complete() ? shm : leaving(shm, new MpjExchange(intra));
        coll.use(exchange);
        // Interceptors key their per-process state (trace files, patterns) by the process, so they see the
        // COMM_WORLD rank and size, whatever communicator this file was opened on.
        int worldRank = MPI.COMM_WORLD.Rank(), worldSize = MPI.COMM_WORLD.Size();
        FileContext context = new FileContext(filename, uri, amode, worldRank, coll.size(), AppIdentity.detect(hints, worldSize), hints, driver, storage,
                new RankZeroBroadcast(exchange), openToken(outcome));
        InterceptorChain chain;
        try {
            chain = new InterceptorChain(RankState.interceptors(hints, write));
        } catch (IllegalArgumentException e) {
            closeQuietly(storage);
            throw ErrorMapping.badArgument(where, e);
        }
        long initial = 0;
        if ((amode & MPIIO.MODE_APPEND) != 0) {
            try {
                initial = FileView.defaultView().positionAtFileSize(storage.size());
            } catch (IOException e) {
                throw ErrorMapping.translate(e, "open (append)", filename, rank);
            }
        }
        TwoPhaseEngine engine = null;
        MPIIOException badHint = null;
        try {
            engine = CollectiveSetup.engine(exchange, hints, storage, chain);
        } catch (IllegalArgumentException e) {
            badHint = ErrorMapping.badArgument(where, e);
        } catch (IOException e) {
            badHint = ErrorMapping.translate(e, "open (collective buffering)", filename, rank);
        }
        try {
            coll.agree(badHint, filename);
        } catch (MPIException e) {
            closeQuietly(storage);
            if (exchange instanceof SharedMemoryExchange s) s.leave();
            throw e;
        }
        Map<String, String> given = new java.util.LinkedHashMap<>(hints);
        // getInfo reports the values in force, as ROMIO writes them back into the file's info
        hints.putAll(engine.settings().effective());
        hints.putAll(SievingSettings.fromHints(hints).effectiveHints());
        SharedFilePointer sharedPointer = new SharedFilePointer(SharedFilePointer.sideFile(uri, hints, token), initial);
        OpenFile file = new OpenFile(coll, filename, uri, amode, driver, storage, context, chain, hints, given, sharedPointer, exchange, engine, initial);
        RankState.opened(uri);
        try {
            chain.opened(context);
        } catch (IOException | IllegalArgumentException e) {
            // an interceptor refused the open (its store failed, or a hint of its is bad): no handle, nothing left open
            RankState.closed(uri);
            closeQuietly(storage);
            if (e instanceof IllegalArgumentException bad) throw ErrorMapping.badArgument(where, bad);
            throw file.translate((IOException) e, "open (interceptors)");
        }
        return file;
    }

    /**
     * The open's random token (broadcast above) folded to a non-zero long, for interceptors that must tell
     * this collective open from others without another exchange (the delegates' open groups).
     */
    private static long openToken(long[] outcome) {
        long t = outcome[1] ^ Long.rotateLeft(outcome[2], 17);
        return t == 0 ? 1 : t;
    }

    /** The amode rules of MPI 4.1 §14.2.1; ERR_AMODE names the rule broken. */
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

    /** MPI_File_delete: independent; refuses a file this process still has open (ERR_FILE_IN_USE). */
    static void delete(String filename) throws MPIException {
        URI uri;
        StorageDriver driver;
        try {
            uri = StorageDrivers.toUri(filename);
            driver = StorageDrivers.installed().forUri(uri);
        } catch (IllegalArgumentException e) {
            throw ErrorMapping.badArgument("", e);
        }
        if (RankState.isOpen(uri)) {
            throw new MPIIOException(ErrorClass.ERR_FILE_IN_USE, filename + ": still open by this process; close it before deleting");
        }
        try {
            driver.delete(uri);
        } catch (IOException e) {
            throw ErrorMapping.translate(e, "delete", filename, -1);
        }
    }

    private static RankExchange leaving(SharedMemoryExchange notAll, RankExchange instead) {
        notAll.leave();
        return instead;
    }

    static void closeQuietly(StorageFile f) {
        if (f == null) return;
        try {
            f.close();
        } catch (IOException ignored) {
            // already failing; the first error is the one reported
        }
    }

    /**
     * Opens the store with ROMIO's data sieving around it where the hints allow. Sieved writes read the
     * window first, so a MODE_WRONLY file is opened for reading too, as ROMIO does (the shim still refuses
     * the application's reads); where that is not allowed, writes are not sieved.
     */
    private static StorageFile openForSieving(StorageDriver driver, URI uri, OpenOptions options, Map<String, String> hints) throws IOException {
        boolean writeOnly = options.write() && !options.read();
        if (writeOnly && SievingSettings.fromHints(hints).write() != SievingSettings.Mode.DISABLE) {
            StorageFile both;
            try {
                both = driver.open(uri, new OpenOptions(true, true, options.create(), options.exclusive(), options.hints()));
            } catch (IOException noReadAccess) {
                Map<String, String> noWriteSieving = new java.util.LinkedHashMap<>(hints);
                noWriteSieving.put(SievingSettings.WRITE, "disable");
                return SievingStorageFile.wrap(driver.open(uri, options), noWriteSieving);
            }
            return SievingStorageFile.wrap(both, hints);
        }
        return SievingStorageFile.wrap(driver.open(uri, options), hints);
    }
}
