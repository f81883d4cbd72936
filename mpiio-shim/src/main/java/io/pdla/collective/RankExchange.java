package io.pdla.collective;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The collective steps the shim's collective protocols and the two-phase engine need, among the ranks of
 * one open file. Two transports: {@link SharedMemoryExchange} when every rank is a thread of this JVM
 * (MPJ's multicore device), the shim's {@code MpjExchange} otherwise (niodev: one JVM per rank).
 *
 * <p>Buffers change hands without copies where the transport allows: what a rank sends must stay
 * unchanged until its next call on the exchange returns, and what it receives is valid until its own
 * next call.
 */
public interface RankExchange {
    int rank();

    int size();

    /** True when ranks see each other's memory, so messages are handed over rather than copied. */
    boolean sharesMemory();

    void barrier() throws IOException;

    /**
     * The file's collective settings, now and after each change of hints (every rank passes the same ones, as
     * MPI requires of hints): a transport takes what concerns it, such as how MPJ messages are sent.
     */
    void configure(CollectiveSettings settings);

    /** Done with this exchange (the file closed, or its open failed); once, later calls do nothing. */
    void leave();

    /** Every rank gives {@code k} longs (the same k everywhere); returns all of them, rank-major. */
    long[] allgather(long[] mine) throws IOException;

    /**
     * Personalised exchange: {@code headers[d]} and {@code payloads[d]} go to rank {@code d} (null or
     * empty for nothing). Returns what each source sent this rank. A transport may deliver a source's
     * payload as the slices sent or as one buffer holding them back to back: read it as a byte sequence.
     */
    Received exchange(long[][] headers, ByteBuffer[][] payloads) throws IOException;

    /** What one {@link #exchange} delivered: per source, its header and its payload slices. */
    record Received(long[][] headers, ByteBuffer[][] payloads) {
        private static final long[] NO_HEADER = new long[0];
        private static final ByteBuffer[] NO_PAYLOAD = new ByteBuffer[0];

        public long[] header(int source) {
            long[] h = headers[source];
            return h == null ? NO_HEADER : h;
        }

        public ByteBuffer[] payload(int source) {
            ByteBuffer[] p = payloads[source];
            return p == null ? NO_PAYLOAD : p;
        }
    }
}
