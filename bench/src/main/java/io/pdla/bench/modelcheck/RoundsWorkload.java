package io.pdla.bench.modelcheck;

import io.pdla.storage.Layout;
import io.pdla.simpfs.timing.Request;
import io.pdla.simpfs.timing.RequestStream;
import io.pdla.simpfs.timing.Workload;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The cost model's access shape replayed in sim-pfs: p ranks share one file, rank r owns the region
 * {@code [r*R, (r+1)*R)} with {@code R = rounds*s}, and in each of {@code rounds} rounds every rank issues ONE
 * request of s bytes inside its region, followed by a barrier when {@code barriers} is set (the model's round:
 * p concurrent requests, and the pattern's cost is the sum over rounds). Without barriers the ranks run freely,
 * as IOR does between its timed phases, and later rounds overlap.
 *
 * <p>{@link Order#RANDOM} visits a rank's s-byte slots in a seeded random order, so every request starts
 * somewhere the disk head is not: the model's assumption that each request pays a start-up {@code a}.
 * {@link Order#SEQUENTIAL} is IOR's segmented order (slot j in round j), under which a server that serves one
 * rank alone streams without seeking.
 */
public record RoundsWorkload(int ranks, long size, int rounds, boolean write, Order order, boolean barriers, long seed,
                             Layout layout)
        implements Workload {

    public enum Order { RANDOM, SEQUENTIAL }

    public RoundsWorkload {
        if (ranks < 1 || size < 1 || rounds < 1) {
            throw new IllegalArgumentException("ranks, size and rounds must be >= 1, were " + ranks + ", " + size + ", " + rounds);
        }
    }

    public long regionBytes() {
        return size * rounds;
    }

    @Override
    public String description() {
        return "rounds " + (write ? "write" : "read") + " p=" + ranks + " s=" + size + " x" + rounds + " "
                + order.name().toLowerCase(java.util.Locale.ROOT) + (barriers ? " barriers" : "") + " layout " + layout;
    }

    @Override
    public List<Layout> files() {
        return List.of(layout);
    }

    @Override
    public RequestStream stream(int rank) {
        int[] slot = new int[rounds];
        for (int i = 0; i < rounds; i++) slot[i] = i;
        if (order == Order.RANDOM) {
            SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + rank);
            for (int i = rounds - 1; i > 0; i--) {
                int j = rnd.nextInt(i + 1);
                int t = slot[i];
                slot[i] = slot[j];
                slot[j] = t;
            }
        }
        long base = rank * regionBytes();
        Request.Kind kind = write ? Request.Kind.WRITE : Request.Kind.READ;
        return new RequestStream() {
            int k;
            boolean barrierNext;

            @Override
            public boolean next(Request into) {
                if (barrierNext) {
                    barrierNext = false;
                    into.barrier();
                    return true;
                }
                if (k >= rounds) return false;
                into.set(kind, 0).add(base + slot[k++] * size, size);
                barrierNext = barriers;
                return true;
            }
        };
    }
}
