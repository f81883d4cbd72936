package io.pdla.bench.ior;

import io.pdla.mpiio.launch.MpjJob;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts {@link IorMain} as an MPJ job whose class path is this JVM's (so it works from the pdla jar and
 * from tests alike). Options are checked here first, so bad input fails before any job is started.
 * MPJ's starter exits 0 whatever the ranks do, so the job's status comes back through a status file that
 * rank 0 writes; a job that never writes it (crashed, killed) counts as failed.
 */
public final class IorLauncher {
    /** Generous: the benchmark sizes are the user's choice. */
    public static final long DEFAULT_TIMEOUT_SECONDS = 3600;
    /** Exit status when the job ended without reporting one. */
    public static final int EXIT_NO_STATUS = 4;

    private IorLauncher() {
    }

    /**
     * Runs the benchmark and returns the job's status (see {@link IorMain}) with its output. With
     * {@code inheritIO} the output goes straight to this process's and the result's output is empty.
     *
     * @throws IorOptions.BadOptionException for bad IOR options (message names the option)
     */
    public static MpjJob.Result run(int np, String device, List<String> iorArgs, boolean inheritIO)
            throws IOException, InterruptedException {
        return run(np, device, null, iorArgs, inheritIO, DEFAULT_TIMEOUT_SECONDS);
    }

    public static MpjJob.Result run(int np, String device, List<String> iorArgs, boolean inheritIO, long timeoutSeconds)
            throws IOException, InterruptedException {
        return run(np, device, null, iorArgs, inheritIO, timeoutSeconds);
    }

    /**
     * As {@link #run(int, String, List, boolean)}, with a machines file for niodev (null for none) and a
     * time-out for captured runs (inherited runs wait as long as the job takes).
     */
    public static MpjJob.Result run(int np, String device, Path machines, List<String> iorArgs, boolean inheritIO,
                                    long timeoutSeconds) throws IOException, InterruptedException {
        return run(np, 0, device, machines, iorArgs, inheritIO, timeoutSeconds);
    }

    /**
     * As above, with {@code delegates} I/O delegate ranks beside the {@code np} application ranks (as
     * {@code pdla run --delegates} starts them): the shim's opens go through the delegates, the FileChannel
     * baseline does not.
     */
    public static MpjJob.Result run(int np, int delegates, String device, Path machines, List<String> iorArgs,
                                    boolean inheritIO, long timeoutSeconds) throws IOException, InterruptedException {
        if (delegates < 0) throw new IllegalArgumentException("--delegates must be >= 0, was " + delegates);
        IorOptions.parse(iorArgs);
        Path status = Files.createTempFile("pdla-ior-status", ".txt");
        try {
            List<String> args = new ArrayList<>(iorArgs);
            args.add(IorMain.STATUS_OPTION);
            args.add(status.toString());
            MpjJob.Builder b = delegates == 0
                    ? MpjJob.builder(IorMain.class.getName()).processes(np)
                    : MpjJob.builder(io.pdla.mpiio.launch.RankMain.class.getName()).processes(np).delegates(delegates)
                            .env(io.pdla.mpiio.launch.RankMain.ENV_MAIN_CLASS, IorMain.class.getName());
            b.device(device).classPath(MpjJob.currentClassPath()).args(args);
            if (machines != null) b.machinesFile(machines.toAbsolutePath());
            MpjJob job = b.build();
            MpjJob.Result r;
            if (inheritIO) {
                Process p = job.start(true);
                r = new MpjJob.Result(p.waitFor(), "", false);
            } else {
                r = job.run(timeoutSeconds);
            }
            String text = Files.readString(status).trim();
            int code = r.exitCode() != 0 ? r.exitCode() : text.isEmpty() ? EXIT_NO_STATUS : Integer.parseInt(text);
            return new MpjJob.Result(code, r.output(), r.timedOut());
        } finally {
            Files.deleteIfExists(status);
        }
    }
}
