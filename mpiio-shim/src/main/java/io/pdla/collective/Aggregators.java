package io.pdla.collective;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Which ranks aggregate: ROMIO's ranklist from {@code cb_config_list} capped at {@code cb_nodes}. */
final class Aggregators {
    private Aggregators() {
    }

    /** The aggregators the settings ask for: a {@code cb_config_list} of host entries, or *:N per host. */
    static int[] choose(long[] hostOfRank, CollectiveSettings s) {
        // chosen per call by size: candidates host by host, so a call's prefix of them spreads over hosts
        if (s.aggregatorsByData()) return hostByHost(hostOfRank, Integer.MAX_VALUE, s.cbNodes());
        if (s.configList() == null) return choose(hostOfRank, s.aggregatorsPerHost(), s.cbNodes());
        return choose(hostOfRank, s.configList(), s.cbNodes());
    }

    /**
     * ROMIO's matching of a {@code cb_config_list} (match_procs, match_this_proc): entry by entry, the
     * lowest up to N ranks of the named host, after which that host is used up, so a later entry naming it
     * again takes nothing ({@code *}: the same for every host not used up yet, in order of their lowest
     * rank), until cb_nodes ranks are chosen. Hosts are matched by the id of their processor name
     * ({@link String#hashCode}, as the shim's {@code CollectiveSetup} names them). A list that matches no rank is an
     * IllegalArgumentException naming the hint (ROMIO would go on with no aggregator).
     */
    static int[] choose(long[] hostOfRank, List<CollectiveSettings.HostSlots> list, int cbNodes) {
        Set<Long> usedUp = new HashSet<>();
        List<Integer> chosen = new ArrayList<>();
        for (CollectiveSettings.HostSlots entry : list) {
            if (entry.host() != null) {
                take(hostOfRank, usedUp, chosen, entry.host().hashCode(), entry.max(), cbNodes);
            } else {
                for (long host : Arrays.stream(hostOfRank).distinct().toArray()) take(hostOfRank, usedUp, chosen, host, entry.max(), cbNodes);
            }
        }
        if (chosen.isEmpty()) {
            throw new IllegalArgumentException("hint " + CollectiveSettings.CB_CONFIG_LIST + ": no entry names a host of this file's ranks");
        }
        return chosen.stream().mapToInt(Integer::intValue).sorted().toArray();
    }

    private static void take(long[] hostOfRank, Set<Long> usedUp, List<Integer> chosen, long host, int max, int cbNodes) {
        if (!usedUp.add(host)) return;
        int taken = 0;
        for (int r = 0; r < hostOfRank.length && taken < max && chosen.size() < cbNodes; r++) {
            if (hostOfRank[r] == host) {
                chosen.add(r);
                taken++;
            }
        }
    }

    /**
     * @param hostOfRank an id of each rank's host (ranks with equal ids share a node)
     * @return aggregator ranks, host by host in turn (the first on every host, then the second...), so a
     *         cap of cb_nodes spreads aggregators over hosts before doubling up on one
     */
    static int[] choose(long[] hostOfRank, int perHost, int cbNodes) {
        return Arrays.stream(hostByHost(hostOfRank, perHost, cbNodes)).sorted().toArray();
    }

    /** Up to perHost ranks of every host, the first of each host, then the second..., at most cbNodes. */
    private static int[] hostByHost(long[] hostOfRank, int perHost, int cbNodes) {
        Map<Long, List<Integer>> byHost = new LinkedHashMap<>();
        for (int r = 0; r < hostOfRank.length; r++) {
            List<Integer> ranks = byHost.get(hostOfRank[r]);   // no lambda: this runs in every rank's first open
            if (ranks == null) byHost.put(hostOfRank[r], ranks = new ArrayList<>());
            ranks.add(r);
        }
        List<Integer> chosen = new ArrayList<>();
        for (int i = 0; chosen.size() < cbNodes; i++) {
            boolean any = false;
            for (List<Integer> ranks : byHost.values()) {
                if (i < ranks.size() && i < perHost && chosen.size() < cbNodes) {
                    chosen.add(ranks.get(i));
                    any = true;
                }
            }
            if (!any) break;
        }
        int[] out = new int[chosen.size()];
        for (int i = 0; i < out.length; i++) out[i] = chosen.get(i);
        return out;
    }
}
