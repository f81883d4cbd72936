package io.pdla.tracer.runtime;

import io.pdla.tracer.format.CheckedSink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

/**
 * One rank's trace file, written in the background: the encoder fills fixed-size blocks in the caller's
 * thread, full blocks go to a queue, a daemon thread writes them. The queue itself is unbounded so that an
 * entry never has to be cut; {@link RankTracer} bounds it by checking {@link #backlogBytes()} before each
 * call (wait briefly, then drop whole calls and count them). A write failure marks the output failed,
 * discards what is queued and is reported once by the caller.
 */
final class TraceOutput implements CheckedSink {
    static final int BLOCK = 64 * 1024;

    private final Path file;
    private final FileChannel channel;
    /** Blocks to write, and {@link IoTask}s to run once everything queued before them is written. */
    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();

    /** Output work for the writer thread (the rank's summary after a checkpoint). */
    interface IoTask {
        void run() throws IOException;
    }
    private final Thread writer;
    private final Object drained = new Object();
    private final CRC32C crc = new CRC32C();

    private byte[] block = new byte[BLOCK];
    private int pos;
    private int crcFrom;
    /** Bytes handed to the writer and not yet written; read on every call, so no lock. */
    private final java.util.concurrent.atomic.AtomicLong backlog = new java.util.concurrent.atomic.AtomicLong();
    private volatile IOException failure;
    /** Tells the writer to stop; not interrupt, which would close the channel under a write. */
    private static final ByteBuffer STOP = ByteBuffer.allocate(0);

    TraceOutput(Path file, byte[] header, int rank) throws IOException {
        this.file = file;
        this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        try {
            crc.update(header);
            ByteBuffer h = ByteBuffer.wrap(header);
            while (h.hasRemaining()) channel.write(h);
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        this.writer = new Thread(this::writeLoop, "pdla-tracer-rank-" + rank);
        writer.setDaemon(true);
        writer.start();
    }

    Path file() {
        return file;
    }

    IOException failure() {
        return failure;
    }

    @Override
    public void put(int b) {
        block[pos++] = (byte) b;
        if (pos == BLOCK) handOff();
    }

    /** The same bytes as the default, without a block-end test per byte while ten bytes are left (the longest varint). */
    @Override
    public void putVarLong(long v) {
        int p = pos;
        if (p + 10 >= BLOCK) {
            CheckedSink.super.putVarLong(v);
            return;
        }
        byte[] b = block;
        while ((v & ~0x7FL) != 0) {
            b[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        b[p++] = (byte) v;
        pos = p;
    }

    private void handOff() {
        crc.update(block, crcFrom, pos - crcFrom);
        crcFrom = 0;
        if (pos == 0) return;
        ByteBuffer full = ByteBuffer.wrap(block, 0, pos);
        block = new byte[BLOCK];
        int n = pos;
        pos = 0;
        if (failure != null) return;
        backlog.addAndGet(n);
        queue.add(full);
    }

    @Override
    public int crcSinceCheckpoint() {
        crc.update(block, crcFrom, pos - crcFrom);
        crcFrom = pos;
        return (int) crc.getValue();
    }

    @Override
    public void checkpointCrcRestartsAfterThis() {
        crc.reset();
        crcFrom = pos;
    }

    long backlogBytes() {
        return backlog.get();
    }

    /** Waits up to {@code millis} for the backlog to fall to {@code atMost} bytes; true if it did. */
    boolean awaitBacklog(long atMost, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        synchronized (drained) {
            while (backlog.get() > atMost && failure == null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) return false;
                TimeUnit.NANOSECONDS.timedWait(drained, left);
            }
            return true;
        }
    }

    /** Hands off the partly filled block and waits up to {@code millis} until everything is written. */
    boolean flush(long millis) {
        handOff();
        try {
            return awaitBacklog(0, millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Hands off what is encoded so far and has the writer run {@code task} after writing it, so that the
     * application's close does not wait for the disk. A failing task fails the output like a failed write.
     */
    void afterWritten(IoTask task) {
        handOff();
        if (failure == null) queue.add(task);
    }

    /** Flushes, stops the writer and closes the file. */
    void close(long millis) {
        flush(millis);
        queue.add(STOP);
        try {
            writer.join(Math.max(1, millis));
            channel.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            if (failure == null) failure = e;
        }
    }

    private void writeLoop() {
        while (true) {
            Object item;
            try {
                item = queue.take();
            } catch (InterruptedException e) {
                continue;
            }
            if (item == STOP) return;
            if (item instanceof IoTask task) {
                try {
                    if (failure == null) task.run();
                } catch (IOException | RuntimeException e) {
                    failure = e instanceof IOException io ? io : new IOException(e);
                    queue.clear();
                    backlog.set(0);
                }
                continue;
            }
            ByteBuffer b = (ByteBuffer) item;
            int n = b.remaining();
            try {
                if (failure == null) {
                    while (b.hasRemaining()) channel.write(b);
                }
            } catch (IOException e) {
                failure = e;
                queue.clear();
            }
            if (failure != null) backlog.set(0);
            else backlog.addAndGet(-n);
            synchronized (drained) {
                drained.notifyAll();
            }
        }
    }
}
