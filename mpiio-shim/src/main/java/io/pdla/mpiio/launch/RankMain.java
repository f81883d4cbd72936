package io.pdla.mpiio.launch;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs an application's main class as an MPJ rank and records how it ended. MPJ's starter exits 0 whatever
 * its ranks do, so {@code pdla run} starts ranks through this class, which writes one status file per rank
 * into {@code $PDLA_STATUS_DIR} for the launcher to count and read while the job runs: a first line "0" or "1", a
 * second naming the rank and its host ("rank R on HOST"), then for a failure its exception. A niodev rank JVM that
 * ends before its main returned (the application's {@code System.exit}, a signal) records "1" from a shutdown hook,
 * so the launcher also learns of a rank that never threw.
 * The application's main class comes from {@code $PDLA_MAIN_CLASS}; the arguments (MPJ's own first, then
 * the user's) are passed on unchanged, as the application's {@code MPI.Init} expects them.
 *
 * <p>With {@value #ENV_DELEGATES} = D &gt; 0 the job's last D world ranks are I/O delegates. Before the
 * application's main, every rank initialises MPJ and the application's ranks get a communicator of their own
 * ({@link #applicationCommunicator}); an application rank then gets {@code MPI.COMM_WORLD} replaced by the application's
 * communicator (the field is public, static and not final, one per rank's class loader), so the application
 * sees a world of its own N ranks with unchanged rank numbers, and its own {@code MPI.Init} and
 * {@code MPI.Finalize} become no-ops through {@link MpiInitOnce}. Delegate ranks serve requests instead of
 * running main. Both sides talk over a duplicate of the full world (tagged point-to-point: MPJ Express has
 * no spawn, and one dedicated context isolates the traffic as an inter-communicator would).
 */
public final class RankMain {
    public static final String ENV_STATUS_DIR = "PDLA_STATUS_DIR";
    public static final String ENV_MAIN_CLASS = "PDLA_MAIN_CLASS";
    public static final String ENV_DELEGATES = "PDLA_DELEGATES";

    private RankMain() {
    }

    public static void main(String[] args) throws Throwable {
        RankWarmup.start();   // the I/O path's classes load while MPJ and the application start
        String realMain = io.pdla.intercept.Environment.get(ENV_MAIN_CLASS);
        if (realMain == null || realMain.isBlank()) throw new IllegalStateException(ENV_MAIN_CLASS + " must name the application's main class");
        // Ranks are threads of one JVM (multicore) or JVMs (niodev): pid and thread id name each uniquely.
        String rank = ProcessHandle.current().pid() + "-" + Thread.currentThread().getId();
        RankIdentity identity = new RankIdentity(args);
        Thread exitWatch = new Thread(() -> recordExitBeforeMainReturned(rank, identity), "pdla-rank-exit-status");
        Runtime.getRuntime().addShutdownHook(exitWatch);
        int delegates = delegates();
        Throwable failure = null;
        try {
            if (delegates > 0) runWithDelegates(realMain, args, delegates);
            else runMain(realMain, args);
        } catch (InvocationTargetException e) {
            failure = e.getCause();
        } catch (Throwable e) {
            failure = e;
        }
        record(rank, identity, failure);
        try {
            Runtime.getRuntime().removeShutdownHook(exitWatch);
        } catch (IllegalStateException shuttingDown) {
            // the JVM already exits; the hook finds the status recorded and writes nothing
        }
        if (failure != null && oneRankPerJvm()) {
            // niodev's threads keep a rank JVM alive until MPI.Finalize, which a failed rank never reaches, and MPJ's
            // starter waits for every rank JVM: without this a failure every rank shares (pdla's collective errors)
            // would leave the whole job waiting until pdla run's --timeout
            failure.printStackTrace();
            System.err.flush();
            System.exit(1);
        }
        if (failure != null) throw failure;
    }

    /** MPJ's niodev device: this JVM is one rank (multicore and hybdev hold several ranks as threads). */
    private static boolean oneRankPerJvm() {
        try {
            Object device = mpjdev.MPJDev.dev;
            return device != null && device.getClass().getName().startsWith("xdev.niodev.");
        } catch (Throwable notInitialised) {
            return false;
        }
    }

    private static void runMain(String realMain, String[] args) throws ReflectiveOperationException {
        Method m = Class.forName(realMain, true, RankMain.class.getClassLoader()).getMethod("main", String[].class);
        m.invoke(null, (Object) args);
    }

    private static int delegates() {
        String d = io.pdla.intercept.Environment.get(ENV_DELEGATES);
        if (d == null || d.isBlank()) return 0;
        try {
            return Integer.parseInt(d.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(ENV_DELEGATES + "='" + d + "' is not a number of delegates");
        }
    }

    private static void runWithDelegates(String realMain, String[] args, int delegates) throws Exception {
        java.lang.reflect.Field owned;
        try {
            owned = mpi.MPI.class.getField(MpiInitOnce.OWNED_FIELD);
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("delegates need the pdla agent in the rank JVM (-javaagent, which MpjJob adds): mpi.MPI has no "
                    + MpiInitOnce.OWNED_FIELD, e);
        }
        mpi.MPI.Init(args);
        mpi.Intracomm world = mpi.MPI.COMM_WORLD;
        int size = world.Size();
        int me = world.Rank();
        int applications = size - delegates;
        if (applications <= 0) throw new IllegalArgumentException(delegates + " delegates leave no application rank in a world of " + size);
        boolean delegate = me >= applications;
        mpi.Intracomm app = applicationCommunicator(world, applications);
        SharedMailboxes boxes = sharedMailboxes(world, applications, delegates);
        // the link carries requests only over MPJ; a one-JVM job's go through the mailboxes and need no communicator
        mpi.Intracomm link = boxes == null ? (mpi.Intracomm) world.clone() : null;
        long timeout = setting(MpjDelegateLink.ENV_TIMEOUT_MS, MpjDelegateLink.DEFAULT_TIMEOUT_MS);
        owned.setBoolean(null, true);
        try {
            if (delegate) {
                long cache = io.pdla.size.ByteSize.parse(io.pdla.intercept.Environment.get(io.pdla.delegate.service.DelegateServer.ENV_CACHE_BYTES),
                        "setting " + io.pdla.delegate.service.DelegateServer.ENV_CACHE_BYTES, io.pdla.delegate.service.DelegateServer.DEFAULT_CACHE_BYTES);
                long failAfter = setting(DelegateRank.ENV_FAIL_AFTER, -1);
                DelegateRank rank = new DelegateRank(link, boxes, applications, delegates, me, cache, failAfter);
                rank.registerHandler();
                world.Barrier();   // every handler registered before any application rank sends
                if (!rank.serve()) {
                    System.err.println("pdla: delegate " + (me - applications) + " played dead (" + DelegateRank.ENV_FAIL_AFTER + ")");
                }
            } else {
                world.Barrier();   // the delegates registered their handlers
                io.pdla.delegate.service.DelegateTransport transport = boxes != null
                        ? new SharedMemoryDelegateLink(boxes, me, applications, delegates, timeout)
                        : new MpjDelegateLink(link, applications, delegates, timeout);
                io.pdla.delegate.service.DelegateTransports.install(transport);
                mpi.MPI.COMM_WORLD = app;
                try {
                    runMain(realMain, args);
                } finally {
                    mpi.MPI.COMM_WORLD = world;
                    io.pdla.delegate.service.DelegateTransports.install(null);
                    if (transport instanceof SharedMemoryDelegateLink shm) shm.bye();
                    else ((MpjDelegateLink) transport).bye();
                }
            }
        } finally {
            owned.setBoolean(null, false);
        }
        mpi.MPI.Finalize();
    }

    /**
     * The communicator of world ranks 0..applications-1, with their world rank numbers; on a delegate rank an
     * unusable shell (MPJ's {@code Create} for a non-member). {@code Create} of an explicit group rather than
     * {@code Split}: MPJ's Split first sends every rank's colour and key to every other rank (at 144 multicore
     * ranks still running after 4 minutes), Create only agrees on the new context among the members, which
     * pdla's agent makes linear ({@link LinearContextAgreement}). Collective over the world.
     */
    static mpi.Intracomm applicationCommunicator(mpi.Intracomm world, int applications) throws mpi.MPIException {
        int[] ranks = new int[applications];
        for (int i = 0; i < applications; i++) ranks[i] = i;
        return world.Create(world.Group().Incl(ranks));
    }

    /** Setting: {@code mpj} makes a one-JVM job talk to its delegates through MPJ messages instead of shared queues. */
    static final String ENV_DELEGATE_TRANSPORT = "PDLA_DELEGATE_TRANSPORT";

    /**
     * The job's shared mailboxes when every rank runs in this JVM (multicore) and the setting does not ask for
     * MPJ, else null. The job's name comes from rank 0, so every rank finds the same mailboxes.
     */
    private static SharedMailboxes sharedMailboxes(mpi.Intracomm world, int applications, int delegates) throws mpi.MPIException {
        String t = io.pdla.intercept.Environment.get(ENV_DELEGATE_TRANSPORT);
        if ("mpj".equalsIgnoreCase(t == null ? "" : t.trim())) return null;
        if (t != null && !t.isBlank() && !"shared".equalsIgnoreCase(t.trim())) {
            throw new IllegalArgumentException(ENV_DELEGATE_TRANSPORT + "='" + t + "' is not one of: shared, mpj");
        }
        if (!io.pdla.mpiio.collective.MulticoreGroups.wholeJobInThisJvm()) return null;
        long[] job = {world.Rank() == 0 ? java.util.concurrent.ThreadLocalRandom.current().nextLong() : 0};
        world.Bcast(job, 0, 1, mpi.MPI.LONG, 0);
        return SharedMailboxes.of("job " + Long.toHexString(job[0]), applications, delegates);
    }

    private static long setting(String name, long fallback) {
        String v = io.pdla.intercept.Environment.get(name);
        if (v == null || v.isBlank()) return fallback;
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + "='" + v + "' is not a number");
        }
    }

    private static void record(String rank, RankIdentity identity, Throwable failure) {
        StringWriter trace = new StringWriter();
        if (failure != null) failure.printStackTrace(new PrintWriter(trace));
        write(rank, (failure == null ? "0" : "1") + "\n" + identity.describe() + "\n" + trace);
    }

    /**
     * The shutdown hook of a niodev rank JVM: it ends before main returned, so the application (or a signal) ended it
     * without an exception for {@link #record} to see. Under multicore and hybdev the JVM holds other ranks and
     * the status of each is theirs to record.
     */
    private static void recordExitBeforeMainReturned(String rank, RankIdentity identity) {
        if (!oneRankPerJvm()) return;
        write(rank, "1\n" + identity.describe() + "\n" + "the rank's JVM exited before its main returned (System.exit, or a signal)\n");
    }

    private static void write(String rank, String text) {
        String dir = io.pdla.intercept.Environment.get(ENV_STATUS_DIR);
        if (dir == null || dir.isBlank()) return;
        // written aside and renamed: the launcher reads statuses while the job runs and must never see half of one
        Path target = Path.of(dir, "rank-" + rank);
        Path partial = Path.of(dir, ".partial-rank-" + rank);
        try {
            if (Files.exists(target)) return;   // the first status of a rank stands (main's own before its JVM's exit)
            Files.writeString(partial, text);
            Files.move(partial, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (java.nio.file.NoSuchFileException e) {
            System.err.println("pdla: cannot record the exit status of rank " + rank + ": the launcher's status directory " + dir
                    + " does not exist on this host (gone after the launcher stopped the job, or not on a file system every host"
                    + " shares: set PDLA_STATUS_ROOT for pdla run to a directory they share)");
        } catch (IOException e) {
            System.err.println("pdla: cannot record the exit status of rank " + rank + " in " + dir + ": " + e);
        }
    }

    /** Which rank of the job this JVM (or thread) is, and on which host, for the launcher's message about a failure. */
    private static final class RankIdentity {
        private final String[] args;

        RankIdentity(String[] args) {
            this.args = args.clone();
        }

        String describe() {
            return "rank " + rank() + " on " + host();
        }

        private String rank() {
            try {
                // the world's rank: with delegates RankMain restores MPI.COMM_WORLD after the application's main
                return Integer.toString(mpi.MPI.COMM_WORLD.Rank());
            } catch (Throwable notInitialised) {
                // before MPI.Init: MPJ's starter passes the rank as the first of the rank's arguments
                return args.length > 0 && args[0].matches("\\d+") ? args[0] : "?";
            }
        }

        private static String host() {
            try {
                return java.net.InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                String h = System.getenv("HOSTNAME");
                return h == null || h.isBlank() ? "an unknown host" : h;
            }
        }
    }
}
