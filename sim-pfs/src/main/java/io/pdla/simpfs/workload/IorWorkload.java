package io.pdla.simpfs.workload;

import io.pdla.simpfs.config.ConfigException;
import io.pdla.storage.Layout;
import io.pdla.simpfs.timing.Request;
import io.pdla.simpfs.timing.RequestStream;
import io.pdla.simpfs.timing.Workload;

import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * IOR's access sequence (src/ior.c): rank r's j-th transfer of segment i is at
 * {@code i*ranks*b + r*b + j*t} in a shared file, or {@code i*b + j*t} in its own file with {@code -F}.
 * "Segmented" is {@code -s 1} with a large {@code b}; "strided" is {@code b = t} with many segments.
 * With {@code random} (IOR's {@code -z}) each rank visits its own transfers in a seeded random order.
 */
public record IorWorkload(int ranks, long blockSize, long transferSize, int segments, boolean filePerProcess,
                          boolean write, boolean random, long seed, Layout layout) implements Workload {
    public IorWorkload {
        if (ranks < 1) throw new ConfigException("ior: -np must be >= 1, was " + ranks);
        if (transferSize <= 0) throw new ConfigException("ior: -t must be > 0, was " + transferSize);
        if (blockSize < transferSize || blockSize % transferSize != 0) {
            throw new ConfigException("ior: -b " + blockSize + " must be a multiple of -t " + transferSize);
        }
        if (segments < 1) throw new ConfigException("ior: -s must be >= 1, was " + segments);
    }

    @Override
    public String description() {
        return "ior " + (write ? "write" : "read") + " -np " + ranks + " -b " + blockSize + " -t " + transferSize
                + " -s " + segments + (filePerProcess ? " -F" : "") + (random ? " -z" : "") + " layout " + layout;
    }

    public long bytesPerRank() {
        return blockSize * segments;
    }

    @Override
    public List<Layout> files() {
        return filePerProcess ? Collections.nCopies(ranks, layout) : List.of(layout);
    }

    @Override
    public RequestStream stream(int rank) {
        long perBlock = blockSize / transferSize;
        long total = perBlock * segments;
        Request.Kind kind = write ? Request.Kind.WRITE : Request.Kind.READ;
        int file = filePerProcess ? rank : 0;
        long[] order = random ? shuffled(total, new SplittableRandom(seed * 1_000_003L + rank)) : null;
        return new RequestStream() {
            long k;

            @Override
            public boolean next(Request into) {
                if (k >= total) return false;
                long idx = order == null ? k : order[(int) k];
                k++;
                long segment = idx / perBlock, j = idx % perBlock;
                long offset = filePerProcess ? segment * blockSize + j * transferSize
                        : segment * ranks * blockSize + rank * blockSize + j * transferSize;
                into.set(kind, file).add(offset, transferSize);
                return true;
            }
        };
    }

    private static long[] shuffled(long n, SplittableRandom rnd) {
        if (n > Integer.MAX_VALUE) throw new ConfigException("ior -z: too many transfers per rank to shuffle: " + n);
        long[] a = new long[(int) n];
        for (int i = 0; i < a.length; i++) a[i] = i;
        for (int i = a.length - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            long tmp = a[i];
            a[i] = a[j];
            a[j] = tmp;
        }
        return a;
    }
}
