package io.pdla.costmodel;

import io.pdla.storage.Layout.Distribution;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Cost of the 1-DH, 1-DV and 2-D layouts on {@code n} servers of one class: HServers [V-ocr, S1 Table 2 =
 * S2 Table I] or SServers [V-ocr, S1 Tables 3-4, same shape with SSD read or write parameters].
 * For one round of p concurrent requests of s bytes (m processes per client node):
 * <pre>
 * T^1V = max(m, ceil(p/n))*(e + s*v)  +  ceil(p/n)*(a + s*b)
 * T^1H = max(p, m*n)*e  +  max(p/n, m)*s*v  +  p*a  +  (p/n)*s*b
 * T^2D = C*e  +  max(m, ceil(p/g)/ceil(n/g))*s*v  +  ceil(p/g)*a  +  (ceil(p/g)/ceil(n/g))*s*b
 *        C = max(m*ceil(n/g), ceil(p/g))   (DERIVED, default)  or  max(m*ceil(p/n), ceil(p/g))   (PRINTED)
 * </pre>
 * The max() terms are the published "p &lt; n versus p &ge; n" cases: the busiest endpoint is either a client
 * node (m requests) or a server. A pattern costs the sum over its rounds [V, S1 3.4.3].
 * Candidate 2-D group counts are the divisors g of n with 1 &lt; g &lt; n [R, formulas.md 1.5; S4 tries only
 * 2 and 4]; g = 1 is 1-DH and g = n is 1-DV, which is why those two report groups 1 and n.
 */
public final class LayoutCostModel {

    private final NetworkParameters network;
    private final int servers;
    private final Function<Op, DeviceParameters> device;
    private final TwoDConnectionTerm twoDTerm;

    private LayoutCostModel(NetworkParameters network, int servers, Function<Op, DeviceParameters> device,
                            TwoDConnectionTerm twoDTerm) {
        this.network = Objects.requireNonNull(network, "network");
        this.servers = Checks.positive("servers (n)", servers);
        this.device = device;
        this.twoDTerm = Objects.requireNonNull(twoDTerm, "twoDTerm");
    }

    /** HServers: the same (a, b) for reads and writes. */
    public static LayoutCostModel hdd(ModelParameters params, int servers) {
        return hdd(params, servers, TwoDConnectionTerm.DERIVED);
    }

    public static LayoutCostModel hdd(ModelParameters params, int servers, TwoDConnectionTerm term) {
        DeviceParameters hdd = params.hdd();
        return new LayoutCostModel(params.network(), servers, op -> hdd, term);
    }

    /** SServers: (a_sr, b_sr) for reads, (a_sw, b_sw) for writes. */
    public static LayoutCostModel ssd(ModelParameters params, int servers) {
        return ssd(params, servers, TwoDConnectionTerm.DERIVED);
    }

    public static LayoutCostModel ssd(ModelParameters params, int servers, TwoDConnectionTerm term) {
        return new LayoutCostModel(params.network(), servers, params::ssd, term);
    }

    public int servers() {
        return servers;
    }

    /** The distributions this model prices ([V]: the three of PDLA); hybrid is priced by the stripe LP instead. */
    public static final List<Distribution> PRICED = List.of(Distribution.ONE_DH, Distribution.ONE_DV, Distribution.TWO_D);

    /** 1-DH, 1-DV, then 2-D for every divisor 1 &lt; g &lt; n, each with group count and zero cost as a template. */
    public List<Candidate> candidates() {
        List<Candidate> list = new ArrayList<>();
        list.add(new Candidate(Distribution.ONE_DH, 1));
        list.add(new Candidate(Distribution.ONE_DV, servers));
        for (int g = 2; g < servers; g++) {
            if (servers % g == 0) {
                list.add(new Candidate(Distribution.TWO_D, g));
            }
        }
        return list;
    }

    /** A layout to evaluate: {@code groups} matters only for 2-D. */
    public record Candidate(Distribution layout, int groups) {
    }

    /** Network and storage parts of one round of p concurrent requests of s bytes. */
    public CostParts requestParts(Distribution layout, int groups, int p, int m, double s, Op op) {
        Checks.positive("processes (p)", p);
        Checks.positive("processes per client node (m)", m);
        Checks.positive("request size (s)", s);
        Objects.requireNonNull(op, "op");
        DeviceParameters d = device.apply(op);
        double e = network.connectSeconds();
        double v = network.secondsPerByte();
        double a = d.startupSeconds();
        double b = d.secondsPerByte();
        int n = servers;
        switch (layout) {
            case ONE_DV: {
                long perServer = ceilDiv(p, n);
                double net = Math.max(m, perServer) * (e + s * v);
                return new CostParts(net, perServer * (a + s * b));
            }
            case ONE_DH: {
                double pn = (double) p / n; // plain fraction in all copies of the table, no ceiling
                double net = Math.max(p, (long) m * n) * e + Math.max(pn, m) * s * v;
                return new CostParts(net, p * a + pn * s * b);
            }
            case TWO_D: {
                if (groups <= 1 || groups >= n) {
                    throw new IllegalArgumentException(
                            "2-D groups (g) must satisfy 1 < g < n=" + n + ", was " + groups);
                }
                long perGroup = ceilDiv(p, groups);
                long serversPerGroup = ceilDiv(n, groups);
                double perServerShare = (double) perGroup / serversPerGroup;
                long connections = twoDTerm == TwoDConnectionTerm.DERIVED
                        ? Math.max((long) m * serversPerGroup, perGroup)
                        : Math.max((long) m * ceilDiv(p, n), perGroup);
                double net = connections * e + Math.max(m, perServerShare) * s * v;
                return new CostParts(net, a * perGroup + perServerShare * s * b);
            }
            default:
                throw new IllegalArgumentException("the layout cost model prices " + PRICED + ", not " + layout.label()
                        + " (hybrid layouts are priced by the stripe LP, StripeLpSolver)");
        }
    }

    public double requestSeconds(Distribution layout, int groups, int p, int m, double s, Op op) {
        return requestParts(layout, groups, p, m, s, op).totalSeconds();
    }

    /** Sum over the pattern's rounds [V, S1 3.4.3: T^L(pattern) = sum_i T^L(r_i)]. */
    public CostParts patternParts(Distribution layout, int groups, AccessPattern pattern) {
        CostParts sum = new CostParts(0, 0);
        for (RequestBatch batch : pattern.batches()) {
            sum = sum.plus(requestParts(layout, groups, pattern.processes(), pattern.processesPerNode(),
                    batch.size(), batch.op()).times(batch.count()));
        }
        return sum;
    }

    public double patternSeconds(Distribution layout, int groups, AccessPattern pattern) {
        return patternParts(layout, groups, pattern).totalSeconds();
    }

    /** Every candidate with its cost, in {@link #candidates()} order. */
    public List<LayoutChoice> rank(AccessPattern pattern) {
        List<LayoutChoice> out = new ArrayList<>();
        for (Candidate c : candidates()) {
            out.add(new LayoutChoice(c.layout(), c.groups(), patternSeconds(c.layout(), c.groups(), pattern)));
        }
        return out;
    }

    /**
     * The cheapest layout for the pattern [V, S1 3.4.3]. Ties (equal to the last bit) go to the earlier candidate
     * in the order 1-DH, 1-DV, 2-D with ascending g, so the result is deterministic.
     */
    public LayoutChoice best(AccessPattern pattern) {
        return rank(pattern).stream().min(Comparator.comparingDouble(LayoutChoice::seconds)).orElseThrow();
    }

    /** {@link #best(AccessPattern)} for a single round of p requests of s bytes. */
    public LayoutChoice best(int p, int m, long s, Op op) {
        return best(AccessPattern.of(p, m, s, 1, op));
    }

    static long ceilDiv(long x, long y) {
        return (x + y - 1) / y;
    }
}
