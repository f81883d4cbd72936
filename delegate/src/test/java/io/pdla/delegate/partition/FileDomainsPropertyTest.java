package io.pdla.delegate.partition;

import io.pdla.access.ExtentList;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class FileDomainsPropertyTest {

    @Test
    void everyMethodsDomainsAreDisjointAscendingAndCoverTheRegionExactly() {
        Property.forAll(2000, (r, c) -> {
            PartitionRequest req = Property.request(r);
            for (PartitionMethod m : PartitionMethod.values()) {
                FileDomains d = FileDomains.partition(m, req);
                List<long[]> all = new ArrayList<>();
                for (int a = 0; a < req.aggregators(); a++) {
                    ExtentList dom = d.domain(a);
                    for (int i = 0; i < dom.size(); i++) {
                        long s = dom.offset(i), e = s + dom.length(i);
                        assertTrue(s >= req.regionStart() && e <= req.regionEnd(), m + " domain " + a + " leaves the region " + req);
                        if (i > 0) {
                            long prevEnd = dom.offset(i - 1) + dom.length(i - 1);
                            assertTrue(s > prevEnd, m + " domain " + a + " not ascending and coalesced at " + i + " " + req);
                        }
                        all.add(new long[]{s, e});
                    }
                }
                all.sort(Comparator.comparingLong(x -> x[0]));
                long at = req.regionStart();
                for (long[] x : all) {
                    assertEquals(at, x[0], m + ": gap or overlap at " + at + " " + req);
                    at = x[1];
                }
                assertEquals(req.regionEnd(), at, m + ": domains end short of the region " + req);
            }
        });
    }

    @Test
    void ownerAndRunEndAgreeWithTheDomains() {
        Property.forAll(1500, (r, c) -> {
            PartitionRequest req = Property.request(r);
            if (req.emptyRegion()) return;
            for (PartitionMethod m : PartitionMethod.values()) {
                FileDomains d = FileDomains.partition(m, req);
                for (int a = 0; a < req.aggregators(); a++) {
                    ExtentList dom = d.domain(a);
                    for (int i = 0; i < dom.size(); i++) {
                        long s = dom.offset(i), e = s + dom.length(i);
                        long inside = s + (long) (r.nextDouble() * (e - s));
                        for (long off : new long[]{s, e - 1, inside}) {
                            assertEquals(a, d.owner(off), m + " owner(" + off + ") " + req);
                            // domains are coalesced, so the maximal owned run from off ends where its extent ends
                            assertEquals(e, d.runEnd(off), m + " runEnd(" + off + ") " + req);
                        }
                    }
                }
            }
        });
    }

    @Test
    void ownerAndRunEndWalkTheDomainsInOrderForLargeRegionsAndManyAggregators() {
        Property.forAll(150, (r, c) -> {
            long stripe = 1L << (10 + r.nextInt(11));
            int s = 1 + r.nextInt(64), p = 1 + r.nextInt(300);
            long start = (long) (r.nextDouble() * stripe * 1000), end = start + 1 + (long) (r.nextDouble() * stripe * 3000);
            PartitionRequest req = new PartitionRequest(start, end, stripe, s, p, 1 + r.nextInt(1 << 20));
            for (PartitionMethod m : PartitionMethod.values()) {
                FileDomains d = FileDomains.partition(m, req);
                int[] next = new int[p];
                ExtentList[] doms = new ExtentList[p];
                for (int a = 0; a < p; a++) doms[a] = d.domain(a);
                // walking the region run by run visits every domain extent once, in order
                for (long off = start; off < end; ) {
                    int a = d.owner(off);
                    long runEnd = d.runEnd(off);
                    assertTrue(runEnd > off, m + " empty run at " + off + " " + req);
                    assertEquals(doms[a].offset(next[a]), off, m + " run start of " + a + " " + req);
                    assertEquals(doms[a].offset(next[a]) + doms[a].length(next[a]), runEnd, m + " run end of " + a + " " + req);
                    next[a]++;
                    off = runEnd;
                }
                for (int a = 0; a < p; a++) assertEquals(doms[a].size(), next[a], m + " runs of " + a + " " + req);
            }
        });
    }

    @Test
    void alignedMethodsPutEveryInteriorBoundaryOnAStripeMultiple() {
        Property.forAll(2000, (r, c) -> {
            PartitionRequest req = Property.request(r);
            for (PartitionMethod m : PartitionMethod.values()) {
                if (!m.stripeAligned()) continue;
                FileDomains d = FileDomains.partition(m, req);
                for (int a = 0; a < req.aggregators(); a++) {
                    ExtentList dom = d.domain(a);
                    for (int i = 0; i < dom.size(); i++) {
                        long s = dom.offset(i), e = s + dom.length(i);
                        assertTrue(s == req.regionStart() || s % req.stripeSize() == 0, m + " domain " + a + " starts at " + s + " " + req);
                        assertTrue(e == req.regionEnd() || e % req.stripeSize() == 0, m + " domain " + a + " ends at " + e + " " + req);
                    }
                }
            }
        });
    }

    @Test
    void evenDomainsFollowRomiosFdSizeAndStripeAlignedMovesEachEndToTheNearestStripe() {
        Property.forAll(2000, (r, c) -> {
            PartitionRequest req = Property.request(r);
            if (req.emptyRegion()) return;
            long len = req.regionLength(), p = req.aggregators();
            long fd = Math.max((len + p - 1) / p, req.minDomainSize());
            FileDomains even = FileDomains.partition(PartitionMethod.EVEN, req);
            FileDomains aligned = FileDomains.partition(PartitionMethod.STRIPE_ALIGNED, req);
            for (int k = 0; k < p; k++) {
                long s = req.regionStart() + k * fd;
                long e = Math.min(req.regionEnd(), s + fd);
                ExtentList dom = even.domain(k);
                if (s >= req.regionEnd()) {
                    assertTrue(dom.isEmpty(), "even: trailing domain " + k + " must be empty " + req);
                } else {
                    assertEquals(ExtentList.of(s, e - s), dom, "even domain " + k + " " + req);
                }
                ExtentList al = aligned.domain(k);
                if (!al.isEmpty() && k < p - 1 && al.offset(0) + al.length(0) < req.regionEnd()) {
                    long end = al.offset(0) + al.length(0);
                    long evenEnd = req.regionStart() + (k + 1) * fd;
                    assertTrue(Math.abs(end - evenEnd) * 2 <= req.stripeSize(),
                            "aligned end " + end + " is not the stripe multiple nearest " + evenEnd + " " + req);
                }
            }
        });
    }

    @Test
    void staticCyclicGivesStripeKToAggregatorKModPInEveryCall() {
        Property.forAll(300, (r, c) -> {
            long stripe = 1 + r.nextInt(64);
            int servers = 1 + r.nextInt(12), p = 1 + r.nextInt(40);
            for (int call = 0; call < 5; call++) {
                long start = r.nextInt(5000), end = start + 1 + r.nextInt(5000);
                PartitionRequest req = new PartitionRequest(start, end, stripe, servers, p, 1 + r.nextInt(100));
                FileDomains d = FileDomains.partition(PartitionMethod.STATIC_CYCLIC, req);
                for (long k = req.firstStripe(); k <= req.lastStripe(); k++) {
                    assertEquals(k % p, d.owner(req.stripeStartInRegion(k)), "stripe " + k + " " + req);
                    assertEquals(k % p, d.owner(req.stripeEndInRegion(k) - 1), "stripe " + k + " " + req);
                }
            }
        });
    }

    @Test
    void groupCyclicWithPAMultipleOfSGivesEachAggregatorOneServerAndNoInterleaving() {
        Property.forAll(600, (r, c) -> {
            int s = 1 + r.nextInt(10);
            int groups = 1 + r.nextInt(5);
            PartitionRequest req = Property.request(r, s, s * groups);
            FileDomains d = FileDomains.partition(PartitionMethod.GROUP_CYCLIC, req);
            ServerView v = new ServerView(d);
            for (int a = 0; a < req.aggregators(); a++) {
                assertTrue(v.serversOf(a) <= 1, "aggregator " + a + " touches " + v.serversOf(a) + " servers " + req);
            }
            for (int j = 0; j < s; j++) {
                assertTrue(v.interleaved(j).isEmpty(), "server " + j + " sees interleaved owners " + v.interleaved(j) + " " + req);
                assertTrue(v.aggregatorsOn(j) <= groups, "server " + j + " has " + v.aggregatorsOn(j) + " aggregators " + req);
            }
        });
    }

    @Test
    void groupCyclicWithPAFactorOfSGivesEachServerExactlyOneAggregator() {
        Property.forAll(600, (r, c) -> {
            int p = 1 + r.nextInt(6);
            int s = p * (1 + r.nextInt(4));
            PartitionRequest req = Property.request(r, s, p);
            FileDomains d = FileDomains.partition(PartitionMethod.GROUP_CYCLIC, req);
            ServerView v = new ServerView(d);
            for (int j = 0; j < s; j++) {
                if (v.stripesOn(j) == 0) continue;
                assertEquals(1, v.aggregatorsOn(j), "server " + j + " " + req);
            }
        });
    }

    @Test
    void groupCyclicWithPNotAMultipleOfSStillGivesEachServerOnlyNonInterleavedAggregators() {
        Property.forAll(600, (r, c) -> {
            int s = 2 + r.nextInt(8);
            int p = 1 + r.nextInt(40);
            PartitionRequest req = Property.request(r, s, p);
            ServerView v = new ServerView(FileDomains.partition(PartitionMethod.GROUP_CYCLIC, req));
            for (int j = 0; j < s; j++) {
                assertTrue(v.interleaved(j).isEmpty(), "server " + j + " interleaves " + v.interleaved(j) + " " + req);
            }
        });
    }

    /**
     * The transpose property, defined on each server's stripes in file order: no aggregator reappears after
     * another took over (no interleaving), and the owner changes along the server exceed by at most one the
     * changes it cannot avoid when every aggregator carries the mean load N/P stripes: a server with R of the
     * region's N stripes must see at least ceil(R * P / N) owners. That excess is seed 004's "at most one lock
     * extent conflict per server".
     */
    @Test
    void transposeGivesAtMostOneLockExtentConflictPerServerAlsoForCoprimePAndS() {
        int[] coprimeSeen = {0};
        Property.forAll(3000, (r, c) -> {
            PartitionRequest req = Property.request(r);
            if (req.emptyRegion()) return;
            if (gcd(req.servers(), req.aggregators()) == 1 && req.servers() > 1 && req.aggregators() > 1) coprimeSeen[0]++;
            ServerView v = new ServerView(FileDomains.partition(PartitionMethod.TRANSPOSE, req));
            long n = req.stripeCount();
            for (int j = 0; j < req.servers(); j++) {
                long rj = v.stripesOn(j);
                if (rj == 0) continue;
                assertTrue(v.interleaved(j).isEmpty(), "server " + j + " interleaves " + v.interleaved(j) + " " + req);
                long unavoidable = (rj * req.aggregators() + n - 1) / n - 1;
                long conflicts = v.ownerChanges(j) - unavoidable;
                assertTrue(conflicts <= 1, "server " + j + ": " + v.ownerChanges(j) + " owner changes, " + unavoidable + " unavoidable " + req);
            }
        });
        assertTrue(coprimeSeen[0] > 100, "too few coprime cases drawn: " + coprimeSeen[0]);
    }

    @Test
    void transposeWithPAtMostSChangesOwnerAtMostOncePerServerWhenStripesFillWholeRows() {
        Property.forAll(1000, (r, c) -> {
            int s = 1 + r.nextInt(12), p = 1 + r.nextInt(s);
            long stripe = 1 + r.nextInt(16);
            long firstRow = r.nextInt(10), rows = 1 + r.nextInt(30);
            PartitionRequest req = new PartitionRequest(firstRow * s * stripe, (firstRow + rows) * s * stripe, stripe, s, p, 1);
            ServerView v = new ServerView(FileDomains.partition(PartitionMethod.TRANSPOSE, req));
            for (int j = 0; j < s; j++) assertTrue(v.ownerChanges(j) <= 1, "server " + j + " " + req);
        });
    }

    @Test
    void transposeReproducesSeed004sExampleOfFiveAggregatorsOnThreeServers() {
        long str = 100;
        PartitionRequest req = new PartitionRequest(0, 12 * str, str, 3, 5, 1);
        FileDomains d = FileDomains.partition(PartitionMethod.TRANSPOSE, req);
        // "the first three stripes in Server S0 are assigned to aggregator P0, followed by the fourth one to P1"
        for (long row = 0; row < 3; row++) assertEquals(0, d.owner(row * 3 * str), "S0 row " + row);
        assertEquals(1, d.owner(3 * 3 * str), "S0 row 3");
        // "the file domain for P1 continues to the second column, the stripes in Server S1"
        assertEquals(1, d.owner(str), "S1 row 0");
        ServerView v = new ServerView(d);
        for (int j = 0; j < 3; j++) assertEquals(1, v.ownerChanges(j), "one lock extent conflict on server " + j);
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** Each server's region stripes in file order with their owners. */
    static final class ServerView {
        private final List<List<Integer>> owners = new ArrayList<>();
        private final int[] serversPerAggregator;

        ServerView(FileDomains d) {
            PartitionRequest req = d.request();
            int s = req.servers();
            for (int j = 0; j < s; j++) owners.add(new ArrayList<>());
            List<java.util.Set<Integer>> serversOf = new ArrayList<>();
            for (int a = 0; a < req.aggregators(); a++) serversOf.add(new java.util.HashSet<>());
            if (!req.emptyRegion()) {
                for (long k = req.firstStripe(); k <= req.lastStripe(); k++) {
                    int o = d.owner(req.stripeStartInRegion(k));
                    if (d.owner(req.stripeEndInRegion(k) - 1) != o && d.method().stripeAligned()) {
                        fail(d.method() + " splits stripe " + k + " between aggregators " + req);
                    }
                    owners.get((int) (k % s)).add(o);
                    serversOf.get(o).add((int) (k % s));
                }
            }
            serversPerAggregator = serversOf.stream().mapToInt(java.util.Set::size).toArray();
        }

        int serversOf(int aggregator) {
            return serversPerAggregator[aggregator];
        }

        long stripesOn(int server) {
            return owners.get(server).size();
        }

        long aggregatorsOn(int server) {
            return owners.get(server).stream().distinct().count();
        }

        int ownerChanges(int server) {
            List<Integer> o = owners.get(server);
            int changes = 0;
            for (int i = 1; i < o.size(); i++) if (!o.get(i).equals(o.get(i - 1))) changes++;
            return changes;
        }

        /** Aggregators that come back on the server after another aggregator took over. */
        List<Integer> interleaved(int server) {
            List<Integer> seen = new ArrayList<>(), back = new ArrayList<>();
            Integer prev = null;
            for (Integer o : owners.get(server)) {
                if (!o.equals(prev)) {
                    if (seen.contains(o)) back.add(o);
                    seen.add(o);
                }
                prev = o;
            }
            return back;
        }
    }
}
