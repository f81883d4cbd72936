package io.pdla.mpiio.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Loads and initialises the classes of pdla's open, read, write and close path on a background thread while the
 * rank starts (MPI.Init, the application's own set-up), so that the job's first open does not pay for them.
 *
 * <p>Why: under MPJ's multicore device every rank has a class loader of its own, so each rank loads, verifies and
 * initialises its own copy of every pdla class it does not share ({@link SharedClassesJar}: the shim's always, all of
 * them with sharing off), and the JDK's class-data sharing does not cover such loaders. A
 * job's first collective open therefore cost each of four rank threads about 25-30 ms of CPU, and its wall time
 * (100-140 ms on two cores) was most of a cold 256 MiB read phase. With the classes loaded at start the open costs
 * each rank 4-9 ms (figures in bench/RESULTS-native.md). The work is the same; it moves from the first open to the
 * job's start, where it overlaps MPJ's own start-up.
 *
 * <p>The list ({@value #LIST}) holds the classes a rank of a job with default settings loads for open, independent
 * and collective reads and writes, views, sync and close; {@code cli}'s {@code RankWarmupListTest} checks it against
 * a real job. Names absent from the class path (a module not installed) are skipped. A class whose initialiser fails
 * here would fail the same way on the application's thread, which then reports it; nothing here is ever thrown to
 * the application. After the classes, the local-file driver links its calls into the native library (a job's first
 * open and reads paid that too), then the straight path's reads run over a temporary file, once per JVM
 * ({@code StraightPathWarmup}), so that the JIT has compiled them before the job's first read. Beside the classes, on a thread of its own, each interceptor provider's {@code warmUp} runs ({@code IoInterceptorProvider}):
 * online PDLA runs its matcher over made-up passes so that the JIT has compiled it before the first pass.
 * {@value #ENV}=false turns the warm-up off.
 */
public final class RankWarmup {
    /** The class list, a resource beside this class: one binary class name per line, '#' comments. */
    public static final String LIST = "warm-classes.txt";
    public static final String ENV = "PDLA_WARMUP";

    /** One warm-up per class loader, i.e. per rank under multicore, per JVM otherwise. */
    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private RankWarmup() {
    }

    /** Starts the warm-up thread for this rank's copy of pdla unless it ran already or is turned off; returns it or null. */
    public static Thread start() {
        String setting = io.pdla.intercept.Environment.get(ENV);
        if (setting != null && setting.trim().equalsIgnoreCase("false")) return null;
        if (!STARTED.compareAndSet(false, true)) return null;
        ClassLoader loader = RankWarmup.class.getClassLoader();
        Thread t = new Thread(() -> warm(loader), "pdla-warmup");
        t.setDaemon(true);   // never keeps a finished job alive
        t.start();
        // beside the list rather than after it: the list takes longer than a small job's way to its first open
        Thread interceptors = new Thread(RankWarmup::warmInterceptors, "pdla-warmup-interceptors");
        interceptors.setDaemon(true);
        interceptors.start();
        return t;
    }

    /** Loads and initialises every listed class found by {@code loader}; returns how many it initialised. */
    static int warm(ClassLoader loader) {
        int done = 0;
        for (String name : classNames()) {
            try {
                Class.forName(name, true, loader);
                done++;
            } catch (ClassNotFoundException | LinkageError absentOrBroken) {
                // not installed (an optional module), or broken: the application's own use reports it
            }
        }
        try {
            io.pdla.storage.StorageDrivers.warmUpLocalFiles();
        } catch (RuntimeException | LinkageError e) {
            // the first open links what this could not, and reports what fails there
        }
        try {
            io.pdla.straight.StraightPathWarmup.run();
        } catch (RuntimeException | LinkageError e) {
            // the first reads compile the path instead
        }
        return done;
    }

    /**
     * The interceptors' own warm-ups (online PDLA's classes and matcher, when the job runs with it): found as
     * an open finds them, through this rank's context class loader, which the warm-up thread inherits.
     */
    static void warmInterceptors() {
        try {
            new io.pdla.intercept.Interceptors().warmUp();
        } catch (RuntimeException | java.util.ServiceConfigurationError | LinkageError e) {
            // a provider that cannot be loaded fails the open that names it, which reports it
        }
    }

    /** The names in {@value #LIST}; empty when the resource is missing. */
    public static List<String> classNames() {
        List<String> names = new ArrayList<>();
        try (InputStream in = RankWarmup.class.getResourceAsStream(LIST)) {
            if (in == null) return names;
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                String s = line.strip();
                if (!s.isEmpty() && !s.startsWith("#")) names.add(s);
            }
        } catch (IOException e) {
            // a jar that cannot be read now fails the application's own class loading, which reports it
        }
        return names;
    }
}
