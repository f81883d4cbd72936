package io.pdla.mpiio.collective;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Which ranks aggregate: ROMIO's ranklist from {@code cb_config_list} (*:N per host) capped at {@code cb_nodes}. */
final class Aggregators {
    private Aggregators() {
    }

    /**
     * @param hostOfRank an id of each rank's host (ranks with equal ids share a node)
     * @return aggregator ranks, host by host in turn (the first on every host, then the second...), so a
     *         cap of cb_nodes spreads aggregators over hosts before doubling up on one
     */
    static int[] choose(long[] hostOfRank, int perHost, int cbNodes) {
        Map<Long, List<Integer>> byHost = new LinkedHashMap<>();
        for (int r = 0; r < hostOfRank.length; r++) byHost.computeIfAbsent(hostOfRank[r], h -> new ArrayList<>()).add(r);
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
        return chosen.stream().mapToInt(Integer::intValue).sorted().toArray();
    }
}
