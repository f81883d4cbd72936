package io.pdla.tracer.format;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The fixed header of one rank's trace ({@code pid} is the rank's process, IOSIG's process column). Times in the trace are nanoseconds since this rank's origin; the
 * origin is given both as wall-clock epoch nanoseconds and as the JVM's {@code System.nanoTime()}, and
 * {@code clockDomain} identifies the JVM so that a reader can align ranks that share one nanoTime clock
 * (MPJ multicore) exactly, and the others by wall clock.
 */
public record TraceHeader(int version, int rank, int nprocs, long pid, long originEpochNanos, long originNanoTime, long clockDomain) {
    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(TraceFormat.HEADER_BYTES);
        b.put(TraceFormat.MAGIC).putShort((short) version).putShort((short) 0).putInt(rank).putInt(nprocs).putLong(pid)
                .putLong(originEpochNanos).putLong(originNanoTime).putLong(clockDomain);
        return b.array();
    }

    public void writeTo(DataOutputStream out) throws IOException {
        out.write(encode());
    }
}
