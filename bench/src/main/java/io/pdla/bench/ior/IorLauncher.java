package io.pdla.bench.ior;

import io.pdla.mpiio.launch.MpjJob;

import java.io.IOException;
import java.util.List;

/**
 * Starts {@link IorMain} as an MPJ job whose class path is this JVM's (so it works from the pdla jar and
 * from tests alike). Options are checked here first, so bad input fails before any job is started.
 */
public final class IorLauncher {
    /** Generous: the benchmark sizes are the user's choice. */
    public static final long DEFAULT_TIMEOUT_SECONDS = 3600;

    private IorLauncher() {
    }

    public static MpjJob job(int np, String device, List<String> iorArgs) {
        IorOptions.parse(iorArgs);
        return MpjJob.builder(IorMain.class.getName()).processes(np).device(device)
                .classPath(MpjJob.currentClassPath()).args(iorArgs).build();
    }

    /**
     * Runs the benchmark. With {@code inheritIO} the output goes straight to this process's and the
     * result's output is empty; otherwise it is captured.
     *
     * @throws IorOptions.BadOptionException for bad IOR options (message names the option)
     */
    public static MpjJob.Result run(int np, String device, List<String> iorArgs, boolean inheritIO)
            throws IOException, InterruptedException {
        MpjJob job = job(np, device, iorArgs);
        if (!inheritIO) return job.run(DEFAULT_TIMEOUT_SECONDS);
        Process p = job.start(true);
        return new MpjJob.Result(p.waitFor(), "", false);
    }
}
