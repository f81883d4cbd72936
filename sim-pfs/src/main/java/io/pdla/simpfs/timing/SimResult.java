package io.pdla.simpfs.timing;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.List;

/**
 * The virtual-time outcome of replaying one workload. Bandwidths are bytes moved divided by the run's
 * elapsed virtual time (first request to last completion, IOR's min-start/max-end rule), in MiB/s.
 * {@code calls} counts the stretches between barriers that moved data (collective calls in replayed
 * streams); per-server, per-call lock conflicts and client counts are in {@link ServerStats}.
 */
@JsonPropertyOrder({"workload", "ranks", "elapsedSeconds", "readBandwidthMiBps", "writeBandwidthMiBps",
        "bytesRead", "bytesWritten", "requests", "subRequests", "lockConflicts", "calls",
        "maxLockConflictsPerServerPerCall", "maxClientsPerServerPerCall", "meanClientsPerServerPerCall"})
public record SimResult(String workload, int ranks, double startSeconds, double elapsedSeconds,
                        long bytesRead, long bytesWritten, double readBandwidthMiBps, double writeBandwidthMiBps,
                        long requests, long subRequests, long lockConflicts, long calls, List<Double> rankCompletionSeconds,
                        List<ServerStats> servers) {
    public SimResult {
        rankCompletionSeconds = List.copyOf(rankCompletionSeconds);
        servers = List.copyOf(servers);
    }

    public long totalSeeks() {
        return servers.stream().mapToLong(ServerStats::seeks).sum();
    }

    /** The most extent-lock conflicts any server saw in one call. */
    @JsonProperty
    public long maxLockConflictsPerServerPerCall() {
        return servers.stream().mapToLong(ServerStats::maxLockConflictsPerCall).max().orElse(0);
    }

    /** The most distinct clients any server served in one call. */
    @JsonProperty
    public int maxClientsPerServerPerCall() {
        return servers.stream().mapToInt(ServerStats::maxClientsPerCall).max().orElse(0);
    }

    /** Distinct clients per server per call, averaged over the servers that were touched. */
    @JsonProperty
    public double meanClientsPerServerPerCall() {
        return servers.stream().filter(s -> s.meanClientsPerCall() > 0).mapToDouble(ServerStats::meanClientsPerCall).average().orElse(0);
    }

    public double maxRankSeconds() {
        return rankCompletionSeconds.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }
}
