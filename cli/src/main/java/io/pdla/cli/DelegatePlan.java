package io.pdla.cli;

import io.pdla.delegate.allocation.DelegateAllocation;
import io.pdla.delegate.allocation.DfraSettings;
import io.pdla.delegate.allocation.JobHistory;
import io.pdla.patterns.db.PatternDatabase;
import io.pdla.patterns.db.PatternEntry;
import io.pdla.patterns.db.StoredPattern;
import io.pdla.pattern.PatternKey;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A job's history as DFRA reads it, from the pattern database of earlier runs of the same command and process
 * count: volume and requests (the local patterns' bytes and requests), N_A (ranks with local patterns), the
 * I/O mode (N-1 when a file is accessed by several ranks, N-N when each rank has its own, 1-1 when one rank does
 * all). The database keeps no metadata queue depths, so the metadata rules see "unknown" (not metadata-bound).
 */
final class DelegatePlan {
    record Plan(Optional<JobHistory> history, DelegateAllocation.Decision decision) {
    }

    private DelegatePlan() {
    }

    static Plan decide(Path db, String command, int processes) {
        return decide(db, command, processes, List.of(), Integer.MAX_VALUE);
    }

    /** {@code neighbours}: "COMMAND@NP" of jobs sharing the default resources. */
    static Plan decide(Path db, String command, int processes, List<String> neighbours, int idle) {
        try (PatternDatabase pdb = PatternDatabase.openExisting(db, true)) {
            Optional<JobHistory> self = history(pdb, command, processes);
            List<JobHistory> others = new ArrayList<>();
            for (String n : neighbours) {
                int at = n.lastIndexOf('@');
                if (at <= 0) throw new IllegalArgumentException("neighbour '" + n + "' must be COMMAND@NP");
                int np;
                try {
                    np = Integer.parseInt(n.substring(at + 1).trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("neighbour '" + n + "': '" + n.substring(at + 1) + "' is not a process count");
                }
                history(pdb, n.substring(0, at), np).ifPresent(others::add);
            }
            return new Plan(self, new DelegateAllocation(DfraSettings.fromEnvironment()).decide(self, others, idle));
        }
    }

    static Optional<JobHistory> history(PatternDatabase pdb, String command, int processes) {
        long bytes = 0, requests = 0;
        Set<Integer> ioRanks = new HashSet<>();
        Map<URI, Set<Integer>> ranksPerFile = new HashMap<>();
        boolean any = false;
        for (PatternEntry e : pdb.byApp(command)) {
            PatternKey k = e.key();
            if (k.processes() != processes) continue;
            any = true;
            if (k.global()) continue;
            ioRanks.add(k.rank());
            ranksPerFile.computeIfAbsent(k.file(), f -> new HashSet<>()).add(k.rank());
            for (StoredPattern p : e.patterns()) {
                bytes += p.requestBytes();
                requests += p.requests();
            }
        }
        if (!any) return Optional.empty();
        JobHistory.IoMode mode = ioRanks.size() <= 1 ? JobHistory.IoMode.ONE_ONE
                : ranksPerFile.values().stream().anyMatch(r -> r.size() > 1) ? JobHistory.IoMode.N_ONE : JobHistory.IoMode.N_N;
        return Optional.of(new JobHistory(command, processes, bytes, requests, ioRanks.size(), mode, Double.NaN));
    }
}
