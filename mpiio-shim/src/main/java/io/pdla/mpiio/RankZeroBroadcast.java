package io.pdla.mpiio;

import io.pdla.intercept.FileContext;
import io.pdla.collective.RankExchange;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * {@link FileContext.RankZeroShare} over the open's {@link RankExchange}: rank 0 computes, frames the outcome
 * (a status byte, then the value or the failure's message) and sends it to every other rank in one exchange.
 */
final class RankZeroBroadcast implements FileContext.RankZeroShare {
    private static final byte VALUE = 0, FAILED = 1;
    private final RankExchange exchange;

    RankZeroBroadcast(RankExchange exchange) {
        this.exchange = exchange;
    }

    @Override
    public byte[] share(Supplier<byte[]> compute) throws IOException {
        int n = exchange.size(), rank = exchange.rank();
        byte[] framed = rank == 0 ? frame(compute) : null;
        if (n > 1) {
            long[][] headers = new long[n][];
            ByteBuffer[][] payloads = new ByteBuffer[n][];
            if (rank == 0) {
                for (int d = 1; d < n; d++) {
                    headers[d] = new long[]{framed.length};
                    payloads[d] = new ByteBuffer[]{ByteBuffer.wrap(framed)};
                }
            }
            RankExchange.Received got = exchange.exchange(headers, payloads);
            if (rank != 0) framed = copy(got, (int) got.header(0)[0]);
        }
        byte[] body = new byte[framed.length - 1];
        System.arraycopy(framed, 1, body, 0, body.length);
        if (framed[0] == FAILED) {
            throw new IOException("rank 0 of the open failed computing what it shares: " + new String(body, StandardCharsets.UTF_8));
        }
        return body;
    }

    private static byte[] frame(Supplier<byte[]> compute) {
        byte status = VALUE;
        byte[] body;
        try {
            body = compute.get();
        } catch (RuntimeException e) {
            status = FAILED;
            body = String.valueOf(e).getBytes(StandardCharsets.UTF_8);
        }
        ByteBuffer b = ByteBuffer.allocate(1 + body.length).put(status).put(body);
        return b.array();
    }

    /** The received slices, back to back (valid only until this rank's next call on the exchange). */
    private static byte[] copy(RankExchange.Received got, int length) {
        ByteBuffer out = ByteBuffer.allocate(length);
        for (ByteBuffer slice : got.payload(0)) out.put(slice.duplicate());
        return out.array();
    }
}
