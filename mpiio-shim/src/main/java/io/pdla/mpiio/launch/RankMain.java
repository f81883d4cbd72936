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
 * into {@code $PDLA_STATUS_DIR} ("0", or "1" and the exception) for the launcher to count and read.
 * The application's main class comes from {@code $PDLA_MAIN_CLASS}; the arguments (MPJ's own first, then
 * the user's) are passed on unchanged, as the application's {@code MPI.Init} expects them.
 */
public final class RankMain {
    public static final String ENV_STATUS_DIR = "PDLA_STATUS_DIR";
    public static final String ENV_MAIN_CLASS = "PDLA_MAIN_CLASS";

    private RankMain() {
    }

    public static void main(String[] args) throws Throwable {
        String realMain = io.pdla.intercept.Environment.get(ENV_MAIN_CLASS);
        if (realMain == null || realMain.isBlank()) throw new IllegalStateException(ENV_MAIN_CLASS + " must name the application's main class");
        // Ranks are threads of one JVM (multicore) or JVMs (niodev): pid and thread id name each uniquely.
        String rank = ProcessHandle.current().pid() + "-" + Thread.currentThread().getId();
        Throwable failure = null;
        try {
            Method m = Class.forName(realMain, true, RankMain.class.getClassLoader()).getMethod("main", String[].class);
            m.invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            failure = e.getCause();
        } catch (ReflectiveOperationException e) {
            failure = e;
        }
        record(rank, failure);
        if (failure != null) throw failure;
    }

    private static void record(String rank, Throwable failure) {
        String dir = io.pdla.intercept.Environment.get(ENV_STATUS_DIR);
        if (dir == null || dir.isBlank()) return;
        StringWriter text = new StringWriter();
        if (failure == null) {
            text.write("0\n");
        } else {
            text.write("1\n");
            failure.printStackTrace(new PrintWriter(text));
        }
        try {
            Files.writeString(Path.of(dir, "rank-" + rank), text.toString());
        } catch (IOException e) {
            System.err.println("pdla: cannot record the exit status of rank " + rank + " in " + dir + ": " + e);
        }
    }
}
