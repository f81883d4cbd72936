package io.pdla.mpiio.launch;

/**
 * Times how long a job's ranks take to build the application ranks' communicator (all ranks but the last
 * args[1]) one way, args[0]: {@code split} (MPJ's Intracomm.Split, what RankMain did), {@code create}
 * (Group.Incl and Intracomm.Create, what RankMain does). With pdla's agent (every MpjJob) MPJ's context
 * agreement is linear, so both are cheaper than MPJ's own. Rank 0 prints
 * {@code TIMING <way> np=<n> init_ms=<..> build_ms=<..>}: from the barrier before to the barrier after, so the
 * slowest rank counts. A measuring tool for bench/RESULTS-delegates.md, not part of the test suite.
 */
public final class CommunicatorTimingProgram {
    public static void main(String[] argv) throws Exception {
        long t0 = System.nanoTime();
        String[] args = mpi.MPI.Init(argv);
        long init = System.nanoTime() - t0;
        String way = args[0];
        int delegates = Integer.parseInt(args[1]);
        mpi.Intracomm world = mpi.MPI.COMM_WORLD;
        int size = world.Size(), me = world.Rank(), applications = size - delegates;
        world.Barrier();
        long t1 = System.nanoTime();
        mpi.Intracomm app = switch (way) {
            case "split" -> world.Split(me < applications ? 0 : 1, me);
            case "create" -> {
                int[] ranks = new int[applications];
                for (int i = 0; i < applications; i++) ranks[i] = i;
                yield world.Create(world.Group().Incl(ranks));
            }
            default -> throw new IllegalArgumentException("way '" + way + "' is not one of: split, create");
        };
        world.Barrier();
        long build = System.nanoTime() - t1;
        if (me < applications && app.Size() != applications) throw new AssertionError("size " + app.Size());
        if (me == 0) {
            boolean linear = java.util.Arrays.stream(world.mpjdevComm.getClass().getDeclaredMethods())
                    .anyMatch(m -> m.getName().equals(LinearContextAgreement.INJECTED_NAME));
            System.out.println("TIMING " + way + " linear_context=" + linear + " np=" + size + " applications=" + applications + " init_ms=" + init / 1_000_000
                    + " build_ms=" + build / 1_000_000);
        }
        mpi.MPI.Finalize();
    }
}
