package io.pdla.mpiio;

import io.pdla.collective.RankExchange;
import io.pdla.collective.SharedMemoryExchange;
import io.pdla.collective.TwoPhaseEngine;
import io.pdla.intercept.AppIdentity;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.mpiio.collective.CollectiveSetup;
import io.pdla.mpiio.collective.MpjExchange;
import io.pdla.mpiio.collective.MulticoreGroups;
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
        if (!(comm instanceof Intracomm user) || !MulticoreGroups.wholeJobInThisJvm()) return openOn(comm, filename, amode, info);
        SharedMemoryExchange shm = MulticoreGroups.joinOpen(user);
        try {
            return openInSharedMemory(user, filename, amode, info, shm);
        } catch (RuntimeException e) { // MPIException is one
            shm.leave(); // every rank failed the same step, so all of them joined
            throw e;
        }
    }

    /** What every rank compares at open, in this order: {@link Collective#requireSame} names them. */
    private static final String[] SAME_AT_OPEN = {"amode", "file name"};

    private static long nameHash(String filename) {
        return filename == null ? 0 : filename.hashCode();
    }

    /**
     * Open when every rank is a thread of this JVM (multicore device): every step meets in shared memory. A
     * meeting can cost the ranks that wait a wake-up, 2-10 ms on a loaded 2-core machine (measured in
     * {@code pdla bench ior}'s read phases, which last 25-60 ms there), so this open meets as rarely as MPI
     * allows. An open that creates nothing changes nothing
     * another rank could see: each rank opens at once, and one meeting both compares name and amode and agrees on
     * the outcome (a rank whose amode or name differs closes what it opened). An open that creates meets three
     * times: compare, rank 0's creation, outcome, since nothing may be created before the ranks agree on amode.
     */
    private static OpenFile openInSharedMemory(Intracomm user, String filename, int amode, Info info, SharedMemoryExchange shm) throws MPIException {
        Collective coll = Collective.inSharedMemory(user, shm);
        int rank = coll.rank();
        boolean create = (amode & MPIIO.MODE_CREATE) != 0;
        Map<String, String> hints = hintsOf(info);
        Target target = null;
        Prepared prepared = null;
        MPIIOException local = null;
        boolean wantsRankZero = false;
        try {
            if (amodeProblem(amode) == null) { // else ERR_AMODE once the ranks know they passed the same amode
                target = Target.of(filename, amode, hints, rank);
                if (!create) {
                    prepared = prepare(target, hints, amode, shm, coll, filename, rank, openToken(shm.uniqueName()));
                    wantsRankZero = prepared.chain().wantsRankZeroAtOpen(prepared.context());
                }
            }
        } catch (MPIIOException e) {
            local = e;
        }
        // the interceptors' wish for rank 0's share at open rides on this meeting, so an open nobody needs it for
        // (redirect with no replica anywhere: every open of a job before its first replica) meets once, not twice
        long[] all = coll.allgather(new long[]{amode, nameHash(filename), Collective.outcome(local), wantsRankZero ? 1 : 0});
        try {
            coll.requireSame(all, 4, SAME_AT_OPEN, String.valueOf(filename));
            checkAmode(amode, filename, rank);
            coll.agree(all, 4, 2, local, filename);
        } catch (MPIIOException e) {
            if (prepared != null) prepared.closeQuietly();
            throw e;
        }
        if (prepared != null) prepared.context().ranksWantedRankZero(anyRankSet(all, 4, 3));
        if (create) {
            rankZeroCreates(coll, target, true, filename, new long[1]);
            try {
                prepared = prepare(target, hints, amode, shm, coll, filename, rank, openToken(shm.uniqueName()));
            } catch (MPIIOException e) {
                local = e;
            }
            agreeOnPrepared(coll, prepared, shm, local, filename);
        }
        return finish(coll, filename, amode, target, prepared, hints, shm.uniqueName(), rank);
    }

    /** Whether any rank's value at index {@code at} of its {@code k} gathered values is non-zero. */
    private static boolean anyRankSet(long[] all, int k, int at) {
        for (int r = 0; r * k + at < all.length; r++) {
            if (all[r * k + at] != 0) return true;
        }
        return false;
    }

    /** Through MPJ, on a private duplicate; the ranks that find themselves in one JVM then use shared memory. */
    private static OpenFile openOn(Comm comm, String filename, int amode, Info info) throws MPIException {
        if (comm == null) throw new MPIIOException(ErrorClass.ERR_COMM, "communicator is null opening " + filename);
        if (!(comm instanceof Intracomm user)) {
            throw new MPIIOException(ErrorClass.ERR_COMM, "opening " + filename + ": an intracommunicator is required, got " + comm.getClass().getName());
        }
        Intracomm intra = (Intracomm) user.clone();
        Collective coll = new Collective(intra);
        int rank = coll.rank();
        coll.requireSame(new long[]{amode, nameHash(filename)}, SAME_AT_OPEN, String.valueOf(filename));
        checkAmode(amode, filename, rank);
        Map<String, String> hints = hintsOf(info);
        Target target = Target.of(filename, amode, hints, rank);

        // the broadcast of rank 0's creation also carries the job-unique token that names the shared-pointer side file
        UUID mine = UUID.randomUUID();
        long[] message = {0, mine.getMostSignificantBits(), mine.getLeastSignificantBits()};
        rankZeroCreates(coll, target, (amode & MPIIO.MODE_CREATE) != 0, filename, message);
        String token = new UUID(message[1], message[2]).toString();
        // Ranks that are threads of this JVM will exchange through shared memory; joining before the agreement
        // below means that after it every rank sees whether all of them joined here.
        SharedMemoryExchange shm = SharedMemoryExchange.join(token, rank, coll.size());

        Store storage = null;
        MPIIOException local = null;
        try {
            storage = openForSieving(target, filename, rank, null);
        } catch (MPIIOException e) {
            local = e;
        }
        try {
            coll.agree(local, filename);
        } catch (MPIException e) {
            shm.leave();
            if (storage != null) storage.closeQuietly();
            throw e;
        }
        RankExchange exchange = shm.complete() ? shm : leaving(shm, new MpjExchange(intra));
        coll.use(exchange);
        Prepared prepared = null;
        try {
            prepared = prepareOn(storage, target, hints, amode, exchange, coll, filename, rank, openToken(token));
        } catch (MPIIOException e) {
            local = e;
        }
        agreeOnPrepared(coll, prepared, exchange, local, filename);
        return finish(coll, filename, amode, target, prepared, hints, token, rank);
    }

    private static Map<String, String> hintsOf(Info info) {
        return new LinkedHashMap<>(info == null ? Map.of() : info.asMap());
    }

    /** The file as the driver sees it: its URI, its driver, the options of this open. */
    private record Target(URI uri, StorageDriver driver, OpenOptions options) {
        static Target of(String filename, int amode, Map<String, String> hints, int rank) throws MPIIOException {
            boolean read = (amode & MPIIO.MODE_WRONLY) == 0;
            boolean write = (amode & MPIIO.MODE_RDONLY) == 0;
            boolean create = (amode & MPIIO.MODE_CREATE) != 0;
            boolean excl = (amode & MPIIO.MODE_EXCL) != 0;
            URI uri;
            try {
                uri = StorageDrivers.toUri(filename);
            } catch (IllegalArgumentException e) {
                throw ErrorMapping.badArgument("rank " + rank + ": ", e);
            }
            return new Target(uri, driverFor(uri, "rank " + rank + ": "), new OpenOptions(read, write, create, excl, hints));
        }
    }

    /**
     * Rank 0 alone creates the file when {@code create} (so that EXCL means "did not exist before this collective
     * open"), and broadcasts the outcome in {@code message[0]}, with the rest of {@code message} (rank 0's) beside it.
     * A failed creation fails the open on every rank, with rank 0's class.
     */
    private static void rankZeroCreates(Collective coll, Target target, boolean create, String filename, long[] message) throws MPIException {
        int rank = coll.rank();
        MPIIOException createError = create ? createOnRankZero(target, filename, rank) : null;
        message[0] = Collective.outcome(createError);
        coll.bcast(message);
        failedCreate(createError, message[0], filename, rank);
    }

    /**
     * The meeting after every rank's part of the open: if any rank failed, this rank closes what it prepared and
     * leaves the exchange (leaving twice is harmless), and the open fails with the agreed class.
     */
    private static void agreeOnPrepared(Collective coll, Prepared prepared, RankExchange exchange, MPIIOException local, String filename)
            throws MPIException {
        try {
            coll.agree(local, filename);
        } catch (MPIException e) {
            if (prepared != null) prepared.closeQuietly();
            exchange.leave();
            throw e;
        }
    }

    /** Rank 0 creates the file (other ranks do nothing); returns why it could not, or null. */
    private static MPIIOException createOnRankZero(Target target, String filename, int rank) {
        if (rank != 0) return null;
        try {
            target.driver().open(target.uri(), target.options()).close();
            return null;
        } catch (IOException e) {
            return ErrorMapping.translate(e, "open", filename, rank);
        }
    }

    /** After the broadcast of rank 0's creation: its own error there, the same class everywhere else. */
    private static void failedCreate(MPIIOException mine, long outcome, String filename, int rank) throws MPIIOException {
        if (mine != null) throw mine;
        if (outcome != 0) {
            throw new MPIIOException(ErrorClass.values()[(int) outcome - 1], filename + ": creating the file failed on rank 0 (this is rank " + rank + ")");
        }
    }

    /** What a rank holds once its part of the open succeeded, before the ranks agree on it. */
    private record Prepared(Store store, RankExchange exchange, FileContext context, InterceptorChain chain, TwoPhaseEngine engine) {
        StorageFile storage() {
            return store.sieved();
        }

        void closeQuietly() {
            store.closeQuietly();
        }
    }

    /**
     * A rank's open store: the driver's file, and what data calls reach (data sieving around it, or the same file
     * where the hints disable sieving). Atomic mode goes to the driver's file: sieving locks each window on its own.
     */
    private record Store(StorageFile driverFile, StorageFile sieved) {
        void closeQuietly() {
            OpenProtocol.closeQuietly(sieved);
        }
    }

    /** This rank's part of an open: the store, the interceptor chain, the collective engine (bad hints are ERR_ARG). */
    private static Prepared prepare(Target target, Map<String, String> hints, int amode, RankExchange exchange, Collective coll,
                                    String filename, int rank, long openToken) throws MPIIOException {
        // every rank a thread of this JVM (the open met in shared memory from its first step): their writes keep clear of
        // data sieving's read-modify-writes through one lock of the group rather than byte-range locks of the file
        java.util.concurrent.locks.ReadWriteLock writeOrder = exchange instanceof SharedMemoryExchange s ? s.writeOrder() : null;
        return prepareOn(openForSieving(target, filename, rank, writeOrder), target, hints, amode, exchange, coll, filename, rank, openToken);
    }

    /** As {@link #prepare}, with the store open; closes it when a later step fails. */
    private static Prepared prepareOn(Store store, Target target, Map<String, String> hints, int amode, RankExchange exchange,
                                      Collective coll, String filename, int rank, long openToken) throws MPIIOException {
        String where = filename + ": rank " + rank + ": ";
        StorageFile storage = store.sieved();
        try {
            // Interceptors key their per-process state (trace files, patterns) by the process, so they see the
            // COMM_WORLD rank and size, whatever communicator this file was opened on.
            int worldRank = MPI.COMM_WORLD.Rank(), worldSize = MPI.COMM_WORLD.Size();
            FileContext context = new FileContext(filename, target.uri(), amode, worldRank, coll.size(),
                    AppIdentity.detect(hints, worldSize), hints, target.driver(), storage, new RankZeroBroadcast(exchange), openToken);
            InterceptorChain chain = new InterceptorChain(RankState.interceptors(hints, target.options().write()));
            AccessFunnel.straightCalls(hints);   // a bad value fails the open, not the first call
            TwoPhaseEngine engine = CollectiveSetup.engine(exchange, hints, storage, chain);
            return new Prepared(store, exchange, context, chain, engine);
        } catch (IllegalArgumentException e) {
            store.closeQuietly();
            throw ErrorMapping.badArgument(where, e);
        } catch (IOException e) {
            store.closeQuietly();
            throw ErrorMapping.translate(e, "open (collective buffering)", filename, rank);
        } catch (RuntimeException e) { // MPIException is one
            // becomes this rank's outcome: thrown past the meeting ahead, it would leave the other ranks waiting there
            store.closeQuietly();
            throw ErrorMapping.translate(e, "open", filename, rank);
        }
    }

    /** After every rank agreed that the open succeeded: the handle, and the interceptors told. */
    private static OpenFile finish(Collective coll, String filename, int amode, Target target, Prepared p, Map<String, String> hints,
                                   String token, int rank) throws MPIException {
        URI uri = target.uri();
        long initial = 0;
        if ((amode & MPIIO.MODE_APPEND) != 0) {
            try {
                initial = FileView.defaultView().positionAtFileSize(p.storage().size());
            } catch (IOException e) {
                throw ErrorMapping.translate(e, "open (append)", filename, rank);
            }
        }
        HandleHints handleHints = new HandleHints(new LinkedHashMap<>(hints), hints);
        // getInfo reports the values in force, as ROMIO writes them back into the file's info
        hints.putAll(p.engine().settings().effective());
        hints.putAll(SievingSettings.fromHints(hints).effectiveHints());
        SharedFilePointer sharedPointer = new SharedFilePointer(SharedFilePointer.sideFile(uri, hints, token), initial);
        AtomicAccess atomicAccess = new AtomicAccess(p.store().driverFile(), (amode & MPIIO.MODE_RDONLY) != 0);
        OpenFile file = new OpenFile(coll, filename, uri, amode, target.driver(), p.storage(), atomicAccess, p.context(), p.chain(),
                handleHints, sharedPointer, p.exchange(), p.engine(), initial);
        RankState.opened(uri);
        try {
            p.chain().opened(p.context());
        } catch (IOException | IllegalArgumentException e) {
            // an interceptor refused the open (its store failed, or a hint of its is bad): no handle, nothing left open
            RankState.closed(uri);
            closeQuietly(p.storage());
            if (e instanceof IllegalArgumentException bad) throw ErrorMapping.badArgument(filename + ": rank " + rank + ": ", bad);
            throw file.translate((IOException) e, "open (interceptors)");
        }
        return file;
    }

    /**
     * The open's job-unique name (a UUID every rank of the open already knows) folded to a non-zero long, for
     * interceptors that must tell this collective open from others without another exchange (the delegates' open groups).
     */
    private static long openToken(String uniqueName) {
        UUID u = UUID.fromString(uniqueName);
        long t = u.getMostSignificantBits() ^ Long.rotateLeft(u.getLeastSignificantBits(), 17);
        return t == 0 ? 1 : t;
    }

    /** The amode rules of MPI 4.1 §14.2.1; ERR_AMODE names the rule broken. */
    private static void checkAmode(int amode, String file, int rank) throws MPIIOException {
        String why = amodeProblem(amode);
        if (why != null) throw new MPIIOException(ErrorClass.ERR_AMODE, file + ": rank " + rank + ": amode " + amode + ": " + why);
    }

    /** The rule {@code amode} breaks, or null. */
    private static String amodeProblem(int amode) {
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
        return why;
    }

    /** The driver of a URI's scheme; none is ROMIO's MPI_ERR_IO ("**iofstypeunsupported") naming the installed ones. */
    private static StorageDriver driverFor(URI uri, String where) throws MPIIOException {
        try {
            return StorageDrivers.installed().forUri(uri);
        } catch (IllegalArgumentException e) {
            throw new MPIIOException(ErrorClass.ERR_IO, where + e.getMessage(), e);
        }
    }

    /** MPI_File_delete: independent; refuses a file this process still has open (ERR_FILE_IN_USE). */
    static void delete(String filename) throws MPIException {
        URI uri;
        StorageDriver driver;
        try {
            uri = StorageDrivers.toUri(filename);
        } catch (IllegalArgumentException e) {
            throw ErrorMapping.badArgument("", e);
        }
        driver = driverFor(uri, "");
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

    /** The store of an open whose file exists by now (rank 0 created it if asked), with data sieving around it. */
    private static Store openForSieving(Target target, String filename, int rank, java.util.concurrent.locks.ReadWriteLock writeOrder) throws MPIIOException {
        OpenOptions options = target.options().withoutCreate();
        try {
            return openForSieving(target.driver(), target.uri(), options, options.hints(), writeOrder);
        } catch (IOException e) {
            throw ErrorMapping.translate(e, "open", filename, rank);
        } catch (IllegalArgumentException e) {
            throw ErrorMapping.badArgument(filename + ": rank " + rank + ": ", e);
        }
    }

    /**
     * Opens the store with ROMIO's data sieving around it where the hints allow. Sieved writes read the
     * window first, so a MODE_WRONLY file is opened for reading too, as ROMIO does (the shim still refuses
     * the application's reads); where that is not allowed, writes are not sieved.
     */
    private static Store openForSieving(StorageDriver driver, URI uri, OpenOptions options, Map<String, String> hints,
                                        java.util.concurrent.locks.ReadWriteLock writeOrder) throws IOException {
        boolean writeOnly = options.write() && !options.read();
        if (writeOnly && SievingSettings.fromHints(hints).write() != SievingSettings.Mode.DISABLE) {
            StorageFile both;
            try {
                both = driver.open(uri, new OpenOptions(true, true, options.create(), options.exclusive(), options.hints()));
            } catch (IOException noReadAccess) {
                Map<String, String> noWriteSieving = new java.util.LinkedHashMap<>(hints);
                noWriteSieving.put(SievingSettings.WRITE, "disable");
                return sieved(driver.open(uri, options), noWriteSieving, writeOrder);
            }
            return sieved(both, hints, writeOrder);
        }
        return sieved(driver.open(uri, options), hints, writeOrder);
    }

    private static Store sieved(StorageFile driverFile, Map<String, String> hints, java.util.concurrent.locks.ReadWriteLock writeOrder) {
        return new Store(driverFile, SievingStorageFile.wrap(driverFile, hints, writeOrder));
    }
}
