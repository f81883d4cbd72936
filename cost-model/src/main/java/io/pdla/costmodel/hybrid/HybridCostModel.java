package io.pdla.costmodel.hybrid;

import io.pdla.costmodel.AccessPattern;
import io.pdla.costmodel.Checks;
import io.pdla.costmodel.CostParts;
import io.pdla.costmodel.DeviceParameters;
import io.pdla.costmodel.ModelParameters;
import io.pdla.costmodel.Op;

import java.util.Objects;

/**
 * The HServers+SServers model: 1-DH over all {@code n_h + n_s} servers with stripe {@code s_h} on each
 * HServer and {@code s_s} on each SServer, {@code n_h*s_h + n_s*s_s = s} [V-ocr, S1 4.2.2 Table 5; cross-checked
 * with the cleaner copy in S8 Tables 1-3]:
 * <pre>
 * T = max(p, m*(n_h+n_s))*e  +  max(m*s, p*s_h, p*s_s)*v  +  p*max(a_h + s_h*b_h, a_s + s_s*b_s)
 * </pre>
 * with (a_s, b_s) = SSD read or write parameters. The transfer term uses the three-term max [R, formulas.md
 * 2.2: S1's copy shows only {@code max(m*s, p*s_s)}, PSA keeps the {@code p*s_h} term; they agree when
 * s_s &ge; s_h]. With {@code n_s = 0} the SServer terms vanish and the model is the HDD 1-DH model; with
 * {@code n_h = 0} it is the SSD 1-DH model [R: a server class with no servers contributes no term].
 * As printed, s_h = 0 still charges the HServer start-up a_h when n_h &gt; 0 (and s_s = 0 the SServer start-up);
 * we keep the printed form here, and "SServers only" is priced by the SSD model instead (formulas.md 2.3).
 *
 * <p><b>Request-aligned hybrid</b> [R, our extension, not in the papers; {@link #requestAlignedParts}]: stripe = the
 * request size s on both classes ({@code s_h = s_s = s}, so not {@code n_h*s_h + n_s*s_s = s}), for a replica read in
 * request-aligned windows ({@link AccessPattern#requestAligned()}). Each request lands whole on one server and the p
 * concurrent requests are dealt round-robin over {@code n = n_h + n_s} servers, {@code ceil(p/n)} per server; a round
 * lasts as long as the slowest class's busiest server:
 * <pre>
 * T^RA = max(m, ceil(p/n))*(e + s*v)  +  ceil(p/n)*max(a_h + s*b_h, a_s + s*b_s)
 * </pre>
 * This is the 1-DV formula of {@code LayoutCostModel} over all n servers with the slower class's device time, and
 * it is 1-DV's term structure on purpose: 1-DH's connection term {@code max(p, m*n)*e} counts every process
 * connecting to every server, but here a request touches one server, so a client node opens m connections and the
 * busiest server accepts ceil(p/n), as in 1-DV; the transfer term is the busiest endpoint's bytes,
 * {@code max(m*s, ceil(p/n)*s)*v}, the same in both readings. With {@code n_s = 0} it is the HDD 1-DV formula on
 * n_h servers, with {@code n_h = 0} the SSD one on n_s. [R] The even deal assumes the ranks' requests spread over
 * all servers; in a rank-major replica of k windows per rank, a lock-step round would only reach
 * {@code n/gcd(k, n)} of them (sim-pfs's ranks drift apart and spread over all).
 */
public final class HybridCostModel {

    private final ModelParameters params;
    private final int hServers;
    private final int sServers;

    public HybridCostModel(ModelParameters params, int hServers, int sServers) {
        this.params = Objects.requireNonNull(params, "params");
        this.hServers = Checks.nonNegative("HServers (n_h)", hServers);
        this.sServers = Checks.nonNegative("SServers (n_s)", sServers);
        if (hServers + sServers == 0) {
            throw new IllegalArgumentException("n_h + n_s must be > 0, was 0");
        }
    }

    public int hServers() {
        return hServers;
    }

    public int sServers() {
        return sServers;
    }

    public ModelParameters params() {
        return params;
    }

    /** Largest feasible HServer stripe: all of s on the HServers ({@code s/n_h}), or 0 with no HServers. */
    public double maxHServerStripe(double s) {
        if (hServers == 0) {
            return 0;
        }
        return s / hServers;
    }

    /** Smallest feasible HServer stripe: 0, unless there are no SServers, which forces s_h = s/n_h. */
    public double minHServerStripe(double s) {
        return sServers == 0 ? s / hServers : 0;
    }

    /** The SServer stripe implied by the constraint {@code n_h*s_h + n_s*s_s = s}. */
    public double sServerStripeFor(double s, double hServerStripe) {
        return sServers == 0 ? 0 : Math.max(0, (s - hServers * hServerStripe) / sServers);
    }

    /** Time of one round of p concurrent requests of s bytes with HServer stripe {@code sh}. */
    public double seconds(int p, int m, double s, Op op, double sh) {
        Checks.positive("processes (p)", p);
        Checks.positive("processes per client node (m)", m);
        Checks.positive("request size (s)", s);
        Objects.requireNonNull(op, "op");
        double lo = minHServerStripe(s);
        double hi = maxHServerStripe(s);
        // relative slack: callers compute s/n_h in floating point
        double slack = 1e-9 * s;
        if (!(sh >= lo - slack && sh <= hi + slack)) {
            throw new IllegalArgumentException("HServer stripe (s_h) must lie in [" + lo + ", " + hi + "], was " + sh);
        }
        double ss = sServerStripeFor(s, sh);
        double e = params.network().connectSeconds();
        double v = params.network().secondsPerByte();
        DeviceParameters h = params.hdd();
        DeviceParameters d = params.ssd(op);
        double connections = Math.max(p, (long) m * (hServers + sServers)) * e;
        double busiestBytes = m * s;
        double busiestStorage = 0;
        if (hServers > 0) {
            busiestBytes = Math.max(busiestBytes, p * sh);
            busiestStorage = Math.max(busiestStorage, h.requestSeconds(sh));
        }
        if (sServers > 0) {
            busiestBytes = Math.max(busiestBytes, p * ss);
            busiestStorage = Math.max(busiestStorage, d.requestSeconds(ss));
        }
        return connections + busiestBytes * v + p * busiestStorage;
    }

    /**
     * Network and storage parts of one round of the request-aligned hybrid (class comment, [R]): p concurrent
     * requests of s bytes, each whole on one of the n_h + n_s servers.
     */
    public CostParts requestAlignedParts(int p, int m, double s, Op op) {
        Checks.positive("processes (p)", p);
        Checks.positive("processes per client node (m)", m);
        Checks.positive("request size (s)", s);
        Objects.requireNonNull(op, "op");
        int n = hServers + sServers;
        long perServer = ((long) p + n - 1) / n;
        double e = params.network().connectSeconds();
        double v = params.network().secondsPerByte();
        double net = Math.max(m, perServer) * (e + s * v);
        double slowest = 0;
        if (hServers > 0) {
            slowest = Math.max(slowest, params.hdd().requestSeconds(s));
        }
        if (sServers > 0) {
            slowest = Math.max(slowest, params.ssd(op).requestSeconds(s));
        }
        return new CostParts(net, perServer * slowest);
    }

    /** {@link #requestAlignedParts} as one time. */
    public double requestAlignedSeconds(int p, int m, double s, Op op) {
        return requestAlignedParts(p, m, s, op).totalSeconds();
    }

    /** The request-aligned hybrid's split for a request of s bytes: {@code s_h = s_s = s} with one round's time. */
    public StripeSplit requestAlignedSplit(int p, int m, double s, Op op) {
        return new StripeSplit(s, s, requestAlignedSeconds(p, m, s, op));
    }

    public StripeSplit split(int p, int m, double s, Op op, double sh) {
        return new StripeSplit(sh, sServerStripeFor(s, sh), seconds(p, m, s, op, sh));
    }
}
