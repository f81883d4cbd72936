package io.pdla.mpiio.collective;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.nio.ByteBuffer;

/** The exchange over MPJ Express messages, for ranks in different JVMs (niodev). Payloads are copied into one array per peer. */
public final class MpjExchange implements RankExchange {
    private final Intracomm comm;
    private final int rank;
    private final int size;

    public MpjExchange(Intracomm comm) throws MPIException {
        this.comm = comm;
        this.rank = comm.Rank();
        this.size = comm.Size();
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
            comm.Barrier();
        } catch (MPIException e) {
            throw new IOException("collective barrier failed: " + e.getMessage(), e);
        }
    }

    @Override
    public long[] allgather(long[] mine) throws IOException {
        long[] all = new long[mine.length * size];
        try {
            comm.Allgather(mine, 0, mine.length, MPI.LONG, all, 0, mine.length, MPI.LONG);
        } catch (MPIException e) {
            throw new IOException("collective allgather failed: " + e.getMessage(), e);
        }
        return all;
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
            int[] recvCounts = new int[2 * size];
            comm.Alltoall(sendCounts, 0, 2, MPI.INT, recvCounts, 0, 2, MPI.INT);

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
}
