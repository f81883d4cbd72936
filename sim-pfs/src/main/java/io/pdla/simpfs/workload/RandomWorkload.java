package io.pdla.simpfs.workload;

import io.pdla.simpfs.config.ConfigException;
import io.pdla.storage.Layout;
import io.pdla.simpfs.timing.Request;
import io.pdla.simpfs.timing.RequestStream;
import io.pdla.simpfs.timing.Workload;

import java.util.List;
import java.util.SplittableRandom;

/**
 * Each rank issues {@code count} requests of {@code requestSize} bytes at request-aligned offsets drawn
 * uniformly from {@code [0, fileSize)}, from a random generator seeded by (seed, rank): the same seed gives
 * the same stream.
 */
public record RandomWorkload(int ranks, long fileSize, long requestSize, int count, boolean write, long seed,
                             Layout layout) implements Workload {
    public RandomWorkload {
        if (ranks < 1 || count < 0) throw new ConfigException("random: ranks must be >= 1 and count >= 0");
        if (requestSize < 1 || fileSize < requestSize) throw new ConfigException("random: need 0 < request size <= file size");
    }

    @Override
    public String description() {
        return "random " + (write ? "write" : "read") + " -np " + ranks + " size " + requestSize + " x" + count
                + " over " + fileSize + " B, layout " + layout;
    }

    @Override
    public List<Layout> files() {
        return List.of(layout);
    }

    @Override
    public RequestStream stream(int rank) {
        SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + rank);
        long slots = fileSize / requestSize;
        Request.Kind kind = write ? Request.Kind.WRITE : Request.Kind.READ;
        return new RequestStream() {
            int done;

            @Override
            public boolean next(Request into) {
                if (done++ >= count) return false;
                into.set(kind, 0).add(rnd.nextLong(slots) * requestSize, requestSize);
                return true;
            }
        };
    }
}
