package io.pdla.intercept;

import java.util.Map;

/**
 * Who is doing I/O, in the terms of PDLA's pattern key: the execution command (main class and arguments)
 * and the number of processes. Together with a rank and a file name it keys patterns and replicas.
 */
public record AppIdentity(String command, int processes) {
    /** Hint and environment variable that name the execution command explicitly. */
    public static final String HINT_APP = "pdla_app";
    public static final String ENV_APP = "PDLA_APP";

    public AppIdentity {
        if (command == null || command.isBlank()) throw new IllegalArgumentException("application command must not be empty");
        if (processes <= 0) throw new IllegalArgumentException("process count must be > 0, was " + processes);
    }

    /**
     * The command from the hint {@value #HINT_APP}, else the environment variable {@value #ENV_APP} (set by
     * {@code pdla run}), else the class whose {@code main} method is at the bottom of the calling thread's
     * stack (under MPJ each rank runs its main class in its own thread or JVM).
     */
    public static AppIdentity detect(Map<String, String> hints, int processes) {
        String cmd = Setting.lookup(hints, HINT_APP, null, ENV_APP);
        if (cmd == null || cmd.isBlank()) cmd = mainClassOfThisThread();
        return new AppIdentity(cmd.trim(), processes);
    }

    /**
     * The bottom of a thread's stack never changes while it lives, and walking the whole stack cost about a tenth of
     * a collective open's own work (opens run once per IOR phase), so each thread looks once.
     */
    private static final ThreadLocal<String> MAIN_CLASS = ThreadLocal.withInitial(AppIdentity::findMainClassOfThisThread);

    private static String mainClassOfThisThread() {
        return MAIN_CLASS.get();
    }

    private static String findMainClassOfThisThread() {
        StackTraceElement[] stack = Thread.currentThread().getStackTrace();
        for (int i = stack.length - 1; i >= 0; i--) {
            StackTraceElement e = stack[i];
            String cls = e.getClassName();
            if ("main".equals(e.getMethodName()) && !cls.startsWith("runtime.") && !cls.startsWith("mpi.") && !cls.startsWith("io.pdla.mpiio.launch.")
                    && !cls.startsWith("java.") && !cls.startsWith("jdk.") && !cls.startsWith("org.junit")) {
                return cls;
            }
        }
        return "unknown-application";
    }
}
