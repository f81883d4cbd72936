package io.pdla.mpiio.launch;

/**
 * The body that {@link MpiInitOnce}'s agent puts in place of MPJ Express's
 * {@code mpjdev.javampjdev.Comm.calculateContext}: the same result (the largest of the members' proposals, every
 * member learning it) from 2(n-1) messages instead of n(n-1).
 *
 * <p>Why: MPJ agrees on a new communicator's context by sending every member's proposal to every other member.
 * Under the multicore device all those messages pass one class lock and are matched in a hash map whose keys
 * collide, so MPI.Init alone (the world communicator) took 4-5 s at 72 ranks and 150-200 s at 144 on 2 cores,
 * and every Split or Create as much again. Here the members send their proposals to the group's rank 0, which
 * sends the largest back: the device, the buffers, the tags ({@code tag + destination rank}) and the context of
 * the messages are MPJ's own, only the pattern is a gather and a scatter.
 *
 * <p>This class is never loaded in a rank: the agent copies the bytecode of {@link #agree} into MPJ's class
 * (so it runs in whatever class loader MPJ's classes live in), and it refers to MPJ and JDK types only.
 */
final class LinearContextAgreement {
    /** The name the copied method gets in {@code mpjdev.javampjdev.Comm}. */
    static final String INJECTED_NAME = "pdla$agreeContext";

    private LinearContextAgreement() {
    }

    /**
     * The largest proposal of the members of {@code local ? localgroup : group} (MPJ's choice), on every member.
     * {@code tag} is MPJ's context-calculation tag (a message to group rank r carries {@code tag + r}, as in
     * MPJ), {@code context} the context the messages travel in.
     */
    static int agree(xdev.Device device, mpjdev.Group worldOrGroup, mpjdev.Group localgroup, boolean local, int tag, int context, int proposal)
            throws mpjdev.MPJDevException {
        mpjdev.Group group = local ? localgroup : worldOrGroup;
        int me = group.rank(), n = group.size();
        xdev.ProcessID[] ids = group.ids;
        int[] value = {proposal};
        if (n == 1) return proposal;
        int sendOverhead = mpjdev.javampjdev.MPJDev.getSendOverhead(), recvOverhead = mpjdev.javampjdev.MPJDev.getRecvOverhead();
        int sendCapacity = sendOverhead + 23, recvCapacity = recvOverhead + 16;
        try {
            if (me == 0) {
                int largest = proposal;
                mpjbuf.Buffer in = new mpjbuf.Buffer(mpjbuf.BufferFactory.create(recvCapacity), recvOverhead, recvCapacity);
                for (int i = 1; i < n; i++) {
                    device.recv(in, ids[i], tag, context);
                    in.commit();
                    in.getSectionHeader();
                    in.getSectionSize();
                    in.read(value, 0, 1);
                    in.clear();
                    if (value[0] > largest) largest = value[0];
                }
                mpjbuf.BufferFactory.destroy(in.getStaticBuffer());
                value[0] = largest;
                mpjbuf.Buffer[] out = new mpjbuf.Buffer[n];
                mpjdev.Request[] sent = new mpjdev.Request[n];
                for (int i = 1; i < n; i++) {
                    out[i] = new mpjbuf.Buffer(mpjbuf.BufferFactory.create(sendCapacity), sendOverhead, sendCapacity);
                    out[i].putSectionHeader(mpjbuf.Type.INT);
                    out[i].write(value, 0, 1);
                    out[i].commit();
                    sent[i] = device.isend(out[i], ids[i], tag + i, context);
                }
                for (int i = 1; i < n; i++) {
                    sent[i].iwait();
                    out[i].clear();
                    mpjbuf.BufferFactory.destroy(out[i].getStaticBuffer());
                }
                return largest;
            }
            mpjbuf.Buffer out = new mpjbuf.Buffer(mpjbuf.BufferFactory.create(sendCapacity), sendOverhead, sendCapacity);
            out.putSectionHeader(mpjbuf.Type.INT);
            out.write(value, 0, 1);
            out.commit();
            mpjdev.Request sent = device.isend(out, ids[0], tag, context);
            mpjbuf.Buffer in = new mpjbuf.Buffer(mpjbuf.BufferFactory.create(recvCapacity), recvOverhead, recvCapacity);
            device.recv(in, ids[0], tag + me, context);
            in.commit();
            in.getSectionHeader();
            in.getSectionSize();
            in.read(value, 0, 1);
            in.clear();
            sent.iwait();
            out.clear();
            mpjbuf.BufferFactory.destroy(out.getStaticBuffer());
            mpjbuf.BufferFactory.destroy(in.getStaticBuffer());
            return value[0];
        } catch (mpjbuf.BufferException | RuntimeException e) {
            throw new mpjdev.MPJDevException(e);
        }
    }
}
