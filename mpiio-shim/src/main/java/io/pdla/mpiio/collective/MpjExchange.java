package io.pdla.mpiio.collective;

import io.pdla.collective.CollectiveSettings;
import io.pdla.collective.ExchangeMode;
import io.pdla.collective.RankExchange;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The exchange over MPJ Express messages, for ranks in different JVMs (niodev). One all-to-all of the
 * counts (in one step of point-to-point messages: {@link DirectCollectives}), then the headers and payloads either by {@code Alltoallv} (every pair of ranks exchanges a message,
 * empty ones too; payloads packed into one array) or point to point (a message only where there is
 * something to say; a single-slice payload from an array sent without packing): hint
 * {@value #HINT}={@code alltoallv|point_to_point}. Two-phase exchanges are sparse (a rank sends to the
 * aggregators its pieces fall to), which is what point to point saves on.
 */
public final class MpjExchange implements RankExchange {
    public static final String HINT = ExchangeMode.HINT;
    private static final int TAG_HEADER = 7001;
    private static final int TAG_PAYLOAD = 7002;
    private static final int TAG_ALLGATHER = 7003;
    private static final int TAG_COUNTS = 7004;

    private final Intracomm comm;
    private final int rank;
    private final int size;
    private volatile ExchangeMode mode = ExchangeMode.fromHint(null);

    public MpjExchange(Intracomm comm) throws MPIException {
        this.comm = comm;
        this.rank = comm.Rank();
        this.size = comm.Size();
    }

    /** Every rank must use the same mode (it comes from the file's hints, which MPI requires to match). */
    @Override
    public void configure(CollectiveSettings settings) {
        this.mode = settings.exchange();
    }

    /** The private communicator this exchange runs on is the file's, which its close frees: nothing else to let go. */
    @Override
    public void leave() {
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean sharesMemory() {
        return false;
    }

    @Override
    public void barrier() throws IOException {
        try {
            DirectCollectives.barrier(comm, TAG_ALLGATHER);
        } catch (MPIException e) {
            throw new IOException("collective barrier failed: " + e.getMessage(), e);
        }
    }

    @Override
    public long[] allgather(long[] mine) throws IOException {
        try {
            return DirectCollectives.allgather(comm, mine, TAG_ALLGATHER);
        } catch (MPIException e) {
            throw new IOException("collective allgather failed: " + e.getMessage(), e);
        }
    }

    @Override
    public Received exchange(long[][] headers, ByteBuffer[][] payloads) throws IOException {
        try {
            int[] sendCounts = new int[2 * size];
            for (int d = 0; d < size; d++) {
                sendCounts[2 * d] = headers == null || headers[d] == null ? 0 : headers[d].length;
                long bytes = 0;
                if (payloads != null && payloads[d] != null) for (ByteBuffer b : payloads[d]) bytes += b.remaining();
                sendCounts[2 * d + 1] = Math.toIntExact(bytes);
            }
            int[] recvCounts = DirectCollectives.alltoall(comm, sendCounts, 2, TAG_COUNTS);
            if (mode == ExchangeMode.POINT_TO_POINT) return pointToPoint(headers, payloads, sendCounts, recvCounts);

            int[] sc = new int[size], sd = new int[size], rc = new int[size], rd = new int[size];
            int sTotal = 0, rTotal = 0;
            for (int d = 0; d < size; d++) {
                sc[d] = sendCounts[2 * d]; sd[d] = sTotal; sTotal += sc[d];
                rc[d] = recvCounts[2 * d]; rd[d] = rTotal; rTotal += rc[d];
            }
            long[] sendLongs = new long[Math.max(1, sTotal)];
            for (int d = 0; d < size; d++) if (sc[d] > 0) System.arraycopy(headers[d], 0, sendLongs, sd[d], sc[d]);
            long[] recvLongs = new long[Math.max(1, rTotal)];
            comm.Alltoallv(sendLongs, 0, sc, sd, MPI.LONG, recvLongs, 0, rc, rd, MPI.LONG);
            long[][] h = new long[size][];
            for (int s = 0; s < size; s++) {
                h[s] = new long[rc[s]];
                System.arraycopy(recvLongs, rd[s], h[s], 0, rc[s]);
            }

            sTotal = 0; rTotal = 0;
            for (int d = 0; d < size; d++) {
                sc[d] = sendCounts[2 * d + 1]; sd[d] = sTotal; sTotal = Math.addExact(sTotal, sc[d]);
                rc[d] = recvCounts[2 * d + 1]; rd[d] = rTotal; rTotal = Math.addExact(rTotal, rc[d]);
            }
            ByteBuffer[][] p = new ByteBuffer[size][];
            { // every rank takes part, whatever it sends (a rank that skipped would leave the others waiting)
                byte[] send = new byte[Math.max(1, sTotal)];
                for (int d = 0; d < size; d++) {
                    if (sc[d] == 0) continue;
                    int at = sd[d];
                    for (ByteBuffer b : payloads[d]) {
                        ByteBuffer src = b.duplicate();
                        int n = src.remaining();
                        src.get(send, at, n);
                        at += n;
                    }
                }
                byte[] recv = new byte[Math.max(1, rTotal)];
                comm.Alltoallv(send, 0, sc, sd, MPI.BYTE, recv, 0, rc, rd, MPI.BYTE);
                for (int s = 0; s < size; s++) p[s] = new ByteBuffer[]{ByteBuffer.wrap(recv, rd[s], rc[s]).slice()};
            }
            return new Received(h, p);
        } catch (MPIException e) {
            throw new IOException("collective exchange failed: " + e.getMessage(), e);
        }
    }

    private Received pointToPoint(long[][] headers, ByteBuffer[][] payloads, int[] sendCounts, int[] recvCounts) throws MPIException {
        long[][] h = new long[size][];
        ByteBuffer[][] p = new ByteBuffer[size][];
        java.util.List<Request> pending = new java.util.ArrayList<>();
        byte[][] incoming = new byte[size][];
        for (int s = 0; s < size; s++) {
            if (s == rank) continue;
            if (recvCounts[2 * s] > 0) {
                h[s] = new long[recvCounts[2 * s]];
                pending.add(comm.Irecv(h[s], 0, h[s].length, MPI.LONG, s, TAG_HEADER));
            }
            if (recvCounts[2 * s + 1] > 0) {
                incoming[s] = new byte[recvCounts[2 * s + 1]];
                pending.add(comm.Irecv(incoming[s], 0, incoming[s].length, MPI.BYTE, s, TAG_PAYLOAD));
            }
        }
        for (int d = 0; d < size; d++) {
            if (d == rank) {
                // to itself: handed over as sent (the caller keeps them unchanged until its next exchange)
                if (sendCounts[2 * d] > 0) h[d] = headers[d];
                if (sendCounts[2 * d + 1] > 0) p[d] = payloads[d];
                continue;
            }
            if (sendCounts[2 * d] > 0) pending.add(comm.Isend(headers[d], 0, headers[d].length, MPI.LONG, d, TAG_HEADER));
            if (sendCounts[2 * d + 1] > 0) {
                ByteBuffer[] slices = payloads[d];
                if (slices.length == 1 && slices[0].hasArray()) {
                    ByteBuffer b = slices[0];
                    pending.add(comm.Isend(b.array(), b.arrayOffset() + b.position(), b.remaining(), MPI.BYTE, d, TAG_PAYLOAD));
                } else {
                    byte[] packed = new byte[sendCounts[2 * d + 1]];
                    int at = 0;
                    for (ByteBuffer b : slices) {
                        ByteBuffer src = b.duplicate();
                        int n = src.remaining();
                        src.get(packed, at, n);
                        at += n;
                    }
                    pending.add(comm.Isend(packed, 0, packed.length, MPI.BYTE, d, TAG_PAYLOAD));
                }
            }
        }
        if (!pending.isEmpty()) Request.Waitall(pending.toArray(new Request[0]));
        for (int s = 0; s < size; s++) if (incoming[s] != null) p[s] = new ByteBuffer[]{ByteBuffer.wrap(incoming[s])};
        return new Received(h, p);
    }
}
