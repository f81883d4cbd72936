package io.pdla.simpfs.timing;

/**
 * What one server did during a run. {@code busySeconds} is device time; {@code maxQueue} and {@code meanQueue}
 * count the sub-requests already waiting or in service when a new one arrived; seeks are HDD head movements
 * (0 on SSD servers). Per call (the stretch between two barriers every rank passes: one collective call in a
 * replayed stream): {@code lockConflicts} are extent locks on this server revoked by another client's request
 * (0 when the config turns extent locks off), {@code maxLockConflictsPerCall} the most in one call, and
 * {@code maxClientsPerCall} / {@code meanClientsPerCall} the distinct clients (client nodes; aggregators when
 * each has its own node) that sent the server requests in one call, the mean taken over the calls that touched
 * the server. {@code cacheHits} are HDD pieces served from the drive's segment cache without touching the media.
 */
public record ServerStats(int server, String kind, long subRequests, long deviceOps, long bytesRead,
                          long bytesWritten, double busySeconds, double utilization, int maxQueue,
                          double meanQueue, long seeks, long seekDistanceBytes, long lockConflicts,
                          long maxLockConflictsPerCall, int maxClientsPerCall, double meanClientsPerCall,
                          long cacheHits) {
}
