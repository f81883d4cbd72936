package io.pdla.simpfs.timing;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.List;

/**
 * The virtual-time outcome of replaying one workload. Bandwidths are bytes moved divided by the run's
 * elapsed virtual time (first request to last completion, IOR's min-start/max-end rule), in MiB/s.
 */
@JsonPropertyOrder({"workload", "ranks", "elapsedSeconds", "readBandwidthMiBps", "writeBandwidthMiBps",
        "bytesRead", "bytesWritten", "requests", "subRequests", "lockConflicts"})
public record SimResult(String workload, int ranks, double startSeconds, double elapsedSeconds,
                        long bytesRead, long bytesWritten, double readBandwidthMiBps, double writeBandwidthMiBps,
                        long requests, long subRequests, long lockConflicts, List<Double> rankCompletionSeconds,
                        List<ServerStats> servers) {
    public SimResult {
        rankCompletionSeconds = List.copyOf(rankCompletionSeconds);
        servers = List.copyOf(servers);
    }

    public long totalSeeks() {
        return servers.stream().mapToLong(ServerStats::seeks).sum();
    }

    public double maxRankSeconds() {
        return rankCompletionSeconds.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }
}
