package io.pdla.patterns.rootcause;

import java.util.Set;

/**
 * One file's I/O in a job, as Darshan-like counters give it. Times in seconds since job start. Every counter
 * after {@code end} is optional (null = not known); a factor is computed over the critical files that have it.
 *
 * @param requests               data requests (reads + writes)
 * @param smallRequests          requests below the small-request threshold of whoever counted them
 * @param nonConsecutiveRequests requests not starting where the same rank's previous request on the file ended
 * @param collective             whether collective I/O was used on the file
 * @param ranks                  the ranks that accessed the file
 * @param stripeCount            storage targets the file is striped over
 * @param storageTargets         ids of the storage targets (OSTs, servers) holding the file
 * @param metadataSeconds        time in metadata operations (open, close, seek, sync, ...) on the file
 */
public record FileIoStats(String file, double start, double end, Long bytesRead, Long bytesWritten, Long requests,
                          Long smallRequests, Long nonConsecutiveRequests, Boolean collective, Set<Integer> ranks,
                          Integer stripeCount, Set<Integer> storageTargets, Double metadataSeconds) {
    public FileIoStats {
        if (file == null || file.isEmpty()) throw new IllegalArgumentException("file interval without a file name");
        if (!(end >= start)) throw new IllegalArgumentException("file " + file + ": end " + end + " before start " + start);
        ranks = ranks == null ? null : Set.copyOf(ranks);
        storageTargets = storageTargets == null ? null : Set.copyOf(storageTargets);
    }

    public static FileIoStats interval(String file, double start, double end) {
        return new FileIoStats(file, start, end, null, null, null, null, null, null, null, null, null, null);
    }

    public long bytes() {
        return (bytesRead == null ? 0 : bytesRead) + (bytesWritten == null ? 0 : bytesWritten);
    }

    public boolean hasBytes() {
        return bytesRead != null || bytesWritten != null;
    }
}
