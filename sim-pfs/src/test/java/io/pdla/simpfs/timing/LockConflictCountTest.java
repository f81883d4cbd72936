package io.pdla.simpfs.timing;

import io.pdla.simpfs.config.NetworkParams;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.ServerClass;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Per-server, per-call lock conflicts and clients, on scripted streams whose outcome follows from the rules. */
class LockConflictCountTest {
    private static final long STRIPE = 64 * 1024;
    private static final Layout STRIPED = Layout.oneDH(ServerClass.HDD, STRIPE);

    private static SimPfsConfig servers(int n) {
        return SimPfsConfig.builder().hservers(n).sservers(0).network(new NetworkParams(10, 1000, 1)).extentLocks(true).build();
    }

    /**
     * One server, two clients writing one stripe each in the scripted order (a barrier between turns, so the
     * order is exact). Interleaved stripes A0 B1 A2 B3 A4 B5: every B write finds the stripe under A's grown
     * lock (A regrows upward after each revocation), three conflicts. Contiguous halves taken in the same
     * alternating time order, A0 B3 A1 B4 A2 B5: one conflict, after which each client keeps its half.
     */
    @Test
    void aScriptedTwoClientInterleavingConflictsOnEveryStripeAndContiguousHalvesOnlyOnce() {
        SimResult interleaved = new TimingEngine(servers(1)).run(turns(new int[]{0, 1, 0, 1, 0, 1}, new long[]{0, 1, 2, 3, 4, 5}));
        assertEquals(3, interleaved.lockConflicts());
        assertEquals(3, interleaved.servers().get(0).lockConflicts());
        assertEquals(6, interleaved.calls(), "one call per turn");
        assertEquals(1, interleaved.maxLockConflictsPerServerPerCall());
        assertEquals(1, interleaved.maxClientsPerServerPerCall(), "one client per turn");

        SimResult halves = new TimingEngine(servers(1)).run(turns(new int[]{0, 1, 0, 1, 0, 1}, new long[]{0, 3, 1, 4, 2, 5}));
        assertEquals(1, halves.lockConflicts());
        assertEquals(1, halves.servers().get(0).lockConflicts());
    }

    @Test
    void eachRevocationDelaysTheRequestByTheChargedCost() {
        Scripted script = turns(new int[]{0, 1, 0, 1, 0, 1}, new long[]{0, 1, 2, 3, 4, 5});
        double cost = 0.003;
        SimResult free = new TimingEngine(servers(1)).run(script);
        SimResult charged = new TimingEngine(servers(1), cost).run(script);
        assertEquals(free.lockConflicts(), charged.lockConflicts());
        // turns are serialised by barriers, so every revocation adds its cost to the elapsed time
        assertEquals(free.elapsedSeconds() + charged.lockConflicts() * cost, charged.elapsedSeconds(), 1e-9);
    }

    @Test
    void bothClientsInOneCallCountAsTwoClientsOnTheServer() {
        SimResult r = new TimingEngine(servers(1)).run(turns(new int[]{0, 1}, new long[]{0, 1}).withoutBarriers());
        assertEquals(1, r.calls());
        assertEquals(2, r.servers().get(0).maxClientsPerCall());
        assertEquals(1, r.lockConflicts());
    }

    /** Static-cyclic with P = S: aggregator a writes stripes a, a+S, a+2S ..., all on server a. */
    @Test
    void staticCyclicWithOneAggregatorPerServerGivesOneClientPerServerAndNoConflicts() {
        int s = 4;
        SimResult r = new TimingEngine(servers(s)).run(staticCyclic(s, s, 32));
        assertEquals(s, r.servers().size());
        for (ServerStats st : r.servers()) {
            assertEquals(1, st.maxClientsPerCall(), "server " + st.server());
            assertEquals(1.0, st.meanClientsPerCall(), 1e-9, "server " + st.server());
            assertEquals(0, st.lockConflicts(), "server " + st.server());
        }
        // with twice the aggregators, each server's stripes alternate between two of them
        SimResult twice = new TimingEngine(servers(s)).run(staticCyclic(s, 2 * s, 32));
        for (ServerStats st : twice.servers()) {
            assertEquals(2, st.maxClientsPerCall(), "server " + st.server());
            assertEquals(true, st.lockConflicts() > 0, "interleaved aggregators revoke each other on server " + st.server());
        }
    }

    private static Scripted staticCyclic(int servers, int aggregators, int stripesPerAggregator) {
        List<List<long[]>> streams = new ArrayList<>();
        for (int a = 0; a < aggregators; a++) {
            List<long[]> mine = new ArrayList<>();
            for (int i = 0; i < stripesPerAggregator; i++) mine.add(new long[]{(long) i * aggregators + a});
            streams.add(mine);
        }
        return new Scripted(streams, false);
    }

    /** turn i: client clients[i] writes stripe stripes[i]; everyone passes a barrier after each turn. */
    private static Scripted turns(int[] clients, long[] stripes) {
        int n = 0;
        for (int c : clients) n = Math.max(n, c + 1);
        List<List<long[]>> streams = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            List<long[]> mine = new ArrayList<>();
            for (int i = 0; i < clients.length; i++) {
                mine.add(clients[i] == r ? new long[]{stripes[i]} : new long[0]);
            }
            streams.add(mine);
        }
        return new Scripted(streams, true);
    }

    /** Each rank's steps: a step is the stripes it writes (one request each), then a barrier if asked. */
    private record Scripted(List<List<long[]>> steps, boolean barriers) implements Workload {
        Scripted withoutBarriers() {
            return new Scripted(steps, false);
        }

        @Override
        public String description() {
            return "scripted " + steps.size() + " clients";
        }

        @Override
        public int ranks() {
            return steps.size();
        }

        @Override
        public List<Layout> files() {
            return List.of(STRIPED);
        }

        @Override
        public RequestStream stream(int rank) {
            List<Request.Kind> kinds = new ArrayList<>();
            List<Long> stripes = new ArrayList<>();
            for (long[] step : steps.get(rank)) {
                for (long k : step) {
                    kinds.add(Request.Kind.WRITE);
                    stripes.add(k);
                }
                if (barriers) {
                    kinds.add(Request.Kind.BARRIER);
                    stripes.add(-1L);
                }
            }
            int[] at = {0};
            return into -> {
                if (at[0] == kinds.size()) return false;
                int i = at[0]++;
                if (kinds.get(i) == Request.Kind.BARRIER) into.barrier();
                else into.set(Request.Kind.WRITE, 0).add(stripes.get(i) * STRIPE, STRIPE);
                return true;
            };
        }
    }
}
