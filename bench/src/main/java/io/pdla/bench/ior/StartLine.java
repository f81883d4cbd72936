package io.pdla.bench.ior;

import io.pdla.collective.SharedMemoryExchange;
import io.pdla.mpiio.collective.MulticoreGroups;
import mpi.Intracomm;
import mpi.MPIException;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Lines the ranks up before a phase's clock starts. MPJ's barrier under the multicore device wakes its parked
 * rank threads one after another, up to ~10 ms apart on 2 cores, and a phase is timed from the earliest start to
 * the latest end, so that skew was charged to every backend's open. When the whole job is threads of this JVM the
 * ranks meet once more in a shared-memory barrier, which releases them within microseconds, as Open MPI's barrier
 * does for its processes; across JVMs MPJ's barrier is all there is.
 */
final class StartLine implements AutoCloseable {
    /** Engines made by this rank; the same count on every rank (each multicore rank loads pdla itself). */
    private static final AtomicInteger ENGINES = new AtomicInteger();

    private final Intracomm world;
    private final SharedMemoryExchange shared;

    private StartLine(Intracomm world, SharedMemoryExchange shared) {
        this.world = world;
        this.shared = shared;
    }

    static StartLine of(Intracomm world) throws MPIException {
        int engine = ENGINES.incrementAndGet();
        SharedMemoryExchange shm = null;
        if (MulticoreGroups.wholeJobInThisJvm()) shm = SharedMemoryExchange.join("pdla bench ior start line #" + engine, world.Rank(), world.Size());
        world.Barrier(); // after every join: complete() is then the same answer on every rank
        if (shm != null && !shm.complete()) {
            shm.leave();
            shm = null;
        }
        return new StartLine(world, shm);
    }

    /** Returns when every rank has arrived, the ranks released as close together as the runtime allows. */
    void await() throws MPIException {
        world.Barrier();
        if (shared == null) return;
        try {
            shared.barrier();
        } catch (IOException e) {
            throw new MPIException(e);
        }
    }

    @Override
    public void close() {
        if (shared != null) shared.leave();
    }
}
