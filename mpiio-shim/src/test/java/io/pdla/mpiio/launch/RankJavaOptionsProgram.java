package io.pdla.mpiio.launch;

import mpi.MPI;

/**
 * Prints what a rank JVM was started with: the property the test's PDLA_RANK_JAVA_OPTIONS set, the JIT's C2 threshold,
 * and whether online PDLA's per-read hook may be inlined.
 */
public final class RankJavaOptionsProgram {
    public static void main(String[] argv) throws Exception {
        MPI.Init(argv);
        String tier4 = java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                .getVMOption("Tier4InvocationThreshold").getValue();
        boolean onlineKeptOut = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()
                .contains("-XX:CompileCommand=dontinline," + MpjJob.ONLINE_OBSERVER);
        System.out.println("RANK " + MPI.COMM_WORLD.Rank() + " probe=" + System.getProperty("pdla.rank.probe") + " tier4=" + tier4
                + " onlineObserverInlined=" + !onlineKeptOut);
        MPI.Finalize();
    }
}
