package io.pdla.mpiio.collective;

import io.pdla.collective.SharedMemoryExchange;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import java.util.Arrays;
import java.util.Map;

/**
 * The MPI side of {@link SharedMemoryExchange}: whether a job's ranks are all threads of this JVM, and the group a
 * collective open on a communicator meets in. Kept apart from the exchange, which names no MPJ class, so that one
 * compiled copy of the exchange and the two-phase engine serves every multicore rank of the JVM (the launcher's
 * shared classes) while this class, like the rest of the shim, is each rank's own.
 */
public final class MulticoreGroups {
    private MulticoreGroups() {
    }

    /**
     * True when every rank of the job is a thread of this JVM (MPJ's multicore device). Then a collective open
     * can meet in shared memory from its first step, without MPJ's collectives (100–300 µs each here).
     */
    public static boolean wholeJobInThisJvm() {
        Object device = mpjdev.MPJDev.dev;
        return device != null && device.getClass().getName().equals("xdev.smpdev.SMPDevice");
    }

    /**
     * Joins the group of a collective open on {@code comm} when {@link #wholeJobInThisJvm()}: the group is named
     * by the members' COMM_WORLD ranks and by how many collective opens this rank made on that member set
     * before, a count that is the same on every member, since blocking collective calls over one group are
     * made in the same order by all of its members. The first rank to arrive draws the job-unique name
     * ({@link SharedMemoryExchange#uniqueName()}) that the open would otherwise broadcast.
     */
    public static SharedMemoryExchange joinOpen(Intracomm comm) throws MPIException {
        int size = comm.Size();
        int[] mine = new int[size];
        for (int i = 0; i < size; i++) mine[i] = i;
        int[] world = Group.Translate_ranks(comm.Group(), mine, MPI.COMM_WORLD.Group());
        String members = Arrays.toString(world);
        // a rank's own count (no lambda: a rank's first open would spin one); other ranks never touch this rank's map
        int sequence;
        synchronized (OPENS_BY_MEMBERS) {
            Integer before = OPENS_BY_MEMBERS.get(members);
            sequence = before == null ? 1 : before + 1;
            OPENS_BY_MEMBERS.put(members, sequence);
        }
        return SharedMemoryExchange.join("open " + members + " #" + sequence, comm.Rank(), size);
    }

    /** Collective opens this rank made per member set. Static, so per rank: each multicore rank loads the shim itself. */
    private static final Map<String, Integer> OPENS_BY_MEMBERS = new java.util.HashMap<>();
}
