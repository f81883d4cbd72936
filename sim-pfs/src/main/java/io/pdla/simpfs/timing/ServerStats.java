package io.pdla.simpfs.timing;

/**
 * What one server did during a run. {@code busySeconds} is device time; {@code maxQueue} and {@code meanQueue}
 * count the sub-requests already waiting or in service when a new one arrived; seeks are HDD head movements
 * (0 on SSD servers).
 */
public record ServerStats(int server, String kind, long subRequests, long deviceOps, long bytesRead,
                         long bytesWritten, double busySeconds, double utilization, int maxQueue,
                         double meanQueue, long seeks, long seekDistanceBytes) {
}
