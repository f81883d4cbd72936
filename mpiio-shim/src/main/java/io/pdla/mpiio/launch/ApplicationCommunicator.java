package io.pdla.mpiio.launch;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;

/**
 * Builds the application ranks' communicator (world ranks 0..N-1 of a job whose last ranks are delegates) with
 * one Allreduce over the world instead of MPJ's {@code Split}.
 *
 * <p>Why: MPJ Express's {@code Split} sends every rank's colour and key to every other rank, and its
 * communicator constructor then agrees on a new context by sending a proposal between every pair of members
 * ({@code mpjdev.javampjdev.Comm.calculateContext}). Under the multicore device all those messages pass one
 * class lock and are matched in a hash map whose keys collide, so building one communicator grew from seconds
 * at 64 ranks to many minutes at 144. Here every rank takes the next number of MPJ's own context counter, as
 * {@code calculateContext} does, the world agrees on the largest with one {@code Allreduce(MAX)} (a reduce and a
 * broadcast along MPJ's trees), and the communicator is made with MPJ's own classes: an {@code mpjdev} group of
 * the first N world ranks, an {@code mpjdev} communicator carrying the agreed context (point-to-point
 * {@code c}, collectives {@code 3c}, MPJ's own scheme) and the {@code mpi.Intracomm} that wraps it, so
 * point-to-point, collectives and everything built from it (Split, Create, clone) are MPJ's. Every rank also
 * moves its counter up to the agreed context, so no communicator made later can be given the same one.
 *
 * <p>The constructors and the counter it needs are package-private in MPJ Express 0.44 (the version pdla
 * bundles); if they are not found (another MPJ, the native device), it falls back to {@code Split}.
 */
final class ApplicationCommunicator {
    private ApplicationCommunicator() {
    }

    /**
     * The communicator of world ranks 0..applications-1 on those ranks (ranks keep their numbers), null on the
     * others. Collective over the world.
     */
    static mpi.Intracomm of(mpi.Intracomm world, int applications) throws mpi.MPIException {
        int size = world.Size(), me = world.Rank();
        if (applications <= 0 || applications > size) {
            throw new IllegalArgumentException(applications + " application ranks do not fit in a world of " + size);
        }
        MpjInternals mpj = MpjInternals.find(world);
        if (mpj == null) {
            mpi.Intracomm split = world.Split(me < applications ? 0 : 1, me);
            return me < applications ? split : null;
        }
        int[] proposal = {mpj.nextContext()}, agreed = new int[1];
        world.Allreduce(proposal, 0, agreed, 0, 1, mpi.MPI.INT, mpi.MPI.MAX);
        mpj.contextTaken(agreed[0]);
        if (me >= applications) return null;
        int[] ranks = new int[applications];
        for (int i = 0; i < applications; i++) ranks[i] = i;
        return mpj.communicator(ranks, agreed[0]);
    }

    /** MPJ Express's package-private pieces this needs, looked up once per rank (per class loader in multicore). */
    private static final class MpjInternals {
        private final mpjdev.Comm world;
        private final Object device;
        private final Field counter;
        private final Constructor<?> devComm;
        private final Constructor<mpi.Intracomm> intracomm;

        private MpjInternals(mpjdev.Comm world, Object device, Field counter, Constructor<?> devComm, Constructor<mpi.Intracomm> intracomm) {
            this.world = world;
            this.device = device;
            this.counter = counter;
            this.devComm = devComm;
            this.intracomm = intracomm;
        }

        static MpjInternals find(mpi.Intracomm world) {
            mpjdev.Comm comm = world.mpjdevComm;
            if (comm == null || !comm.getClass().getName().equals("mpjdev.javampjdev.Comm")) return null;
            try {
                Class<?> c = comm.getClass();
                Field device = c.getDeclaredField("device");
                device.setAccessible(true);
                Field counter = c.getDeclaredField("staticContext");
                counter.setAccessible(true);
                Class<?> deviceType = Class.forName("xdev.Device", false, c.getClassLoader());
                // (device, group, unused group, unused int): sets the device and the group and talks to no one
                Constructor<?> devComm = c.getDeclaredConstructor(deviceType, mpjdev.Group.class, mpjdev.Group.class, int.class);
                devComm.setAccessible(true);
                Constructor<mpi.Intracomm> intracomm = mpi.Intracomm.class.getDeclaredConstructor(mpjdev.Comm.class, mpjdev.Group.class);
                intracomm.setAccessible(true);
                return new MpjInternals(comm, device.get(comm), counter, devComm, intracomm);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }

        /** MPJ's own proposal: its counter, incremented under the lock MPJ takes for it. */
        int nextContext() {
            synchronized (world.getClass()) {
                try {
                    int next = counter.getInt(null) + 1;
                    counter.setInt(null, next);
                    return next;
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("MPJ's context counter became inaccessible", e);
                }
            }
        }

        void contextTaken(int agreed) {
            synchronized (world.getClass()) {
                try {
                    if (counter.getInt(null) < agreed) counter.setInt(null, agreed);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("MPJ's context counter became inaccessible", e);
                }
            }
        }

        mpi.Intracomm communicator(int[] worldRanks, int context) throws mpi.MPIException {
            mpjdev.Group group = world.group.incl(worldRanks);
            try {
                mpjdev.Comm comm = (mpjdev.Comm) devComm.newInstance(device, group, null, 0);
                comm.sendctxt = context;
                comm.recvctxt = context;
                comm.collctxt = context + 2 * context;
                return intracomm.newInstance(comm, comm.group);
            } catch (ReflectiveOperationException e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                throw new mpi.MPIException("cannot build the application ranks' communicator of " + worldRanks.length
                        + " ranks with MPJ's constructors: " + cause);
            }
        }
    }
}
