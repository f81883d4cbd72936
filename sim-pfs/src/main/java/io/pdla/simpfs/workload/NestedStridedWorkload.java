package io.pdla.simpfs.workload;

import io.pdla.simpfs.config.ConfigException;
import io.pdla.storage.Layout;
import io.pdla.simpfs.timing.Request;
import io.pdla.simpfs.timing.RequestStream;
import io.pdla.simpfs.timing.Workload;

import java.util.List;

/**
 * PIO-Bench's nested strided pattern as a two-level closed form (an IOSIG nested signature): rank r's request
 * (i, j) is {@code requestSize} bytes at {@code r*requestSize + i*outerStride + j*innerStride}, for
 * {@code i < outerCount}, {@code j < innerCount}. The ranks' requests interleave at the innermost level.
 * {@link #of} picks PIO-Bench-like strides: inner stride {@code ranks*requestSize}, outer stride twice the
 * inner span (so each outer step skips a gap as large as the data it reads).
 */
public record NestedStridedWorkload(int ranks, long requestSize, long innerStride, int innerCount,
                                    long outerStride, int outerCount, boolean write, Layout layout) implements Workload {
    public NestedStridedWorkload {
        if (ranks < 1 || requestSize < 1 || innerCount < 1 || outerCount < 1) {
            throw new ConfigException("nested-strided: ranks, request size and counts must be >= 1");
        }
        if (innerStride < (long) ranks * requestSize) {
            throw new ConfigException("nested-strided: inner stride " + innerStride + " is smaller than ranks*requestSize = " + (long) ranks * requestSize);
        }
        if (outerStride < innerStride * innerCount) {
            throw new ConfigException("nested-strided: outer stride " + outerStride + " is smaller than the inner span " + innerStride * innerCount);
        }
    }

    public static NestedStridedWorkload of(int ranks, long requestSize, int innerCount, int outerCount, boolean write, Layout layout) {
        long inner = (long) ranks * requestSize;
        return new NestedStridedWorkload(ranks, requestSize, inner, innerCount, 2 * inner * innerCount, outerCount, write, layout);
    }

    @Override
    public String description() {
        return "pio-bench nested-strided " + (write ? "write" : "read") + " -np " + ranks + " size " + requestSize
                + " inner " + innerCount + "x" + innerStride + " outer " + outerCount + "x" + outerStride + " layout " + layout;
    }

    @Override
    public List<Layout> files() {
        return List.of(layout);
    }

    @Override
    public RequestStream stream(int rank) {
        Request.Kind kind = write ? Request.Kind.WRITE : Request.Kind.READ;
        long base = rank * requestSize;
        return new RequestStream() {
            int i, j;

            @Override
            public boolean next(Request into) {
                if (i >= outerCount) return false;
                into.set(kind, 0).add(base + i * outerStride + j * innerStride, requestSize);
                if (++j == innerCount) {
                    j = 0;
                    i++;
                }
                return true;
            }
        };
    }
}
