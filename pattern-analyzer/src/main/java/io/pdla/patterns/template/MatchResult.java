package io.pdla.patterns.template;

import java.util.List;

/** What the matcher found in one rank's requests to one file, and how much of them it explains. */
public record MatchResult(int rank, int fileId, List<LocalPattern> patterns, long requests, long bytes,
                          long explainedRequests, long explainedBytes) {
    public MatchResult {
        patterns = List.copyOf(patterns);
    }
}
