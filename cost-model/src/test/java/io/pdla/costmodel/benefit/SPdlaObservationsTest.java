package io.pdla.costmodel.benefit;

import io.pdla.costmodel.AccessPattern;
import io.pdla.costmodel.ModelParameters;
import io.pdla.costmodel.Op;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The S-PDLA observations of S1 sec 4.3 and 5.2 (formulas.md 3.1, 3.5) over ranges, with the default parameters. */
class SPdlaObservationsTest {

    private static final ModelParameters P = ModelParameters.defaults();
    private static final int[] PROCESSES = {8, 32, 128, 512};

    private static int perNode(int p) {
        return Math.max(1, p / 8);
    }

    /**
     * Up to 64 KiB, SServers win for every n_h/n_s up to 8. Beyond that ratio the SServers' few network links
     * become the bottleneck and the 1-DV layout on many HServers wins even for small writes (the next tests).
     */
    @Test
    void smallRequestsFavourSServers() {
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (int nh : new int[] {4, 8, 16, 32}) {
            for (int ns : new int[] {1, 2, 4, 8}) {
                if (ns > nh || nh > 8 * ns) {
                    continue;
                }
                BenefitCalculator calc = new BenefitCalculator(P, nh, ns);
                for (int p : PROCESSES) {
                    for (long s = 4096; s <= 65536; s *= 2) {
                        for (Op op : Op.values()) {
                            PatternBenefit b = calc.evaluate(AccessPattern.of(p, perNode(p), s, 10, op));
                            checked++;
                            if (b.bestSpace() != ReplicaSpace.SSERVERS || !(b.benefitOnSServers() > 0)) {
                                failures.add("nh=" + nh + " ns=" + ns + " p=" + p + " s=" + s + " " + op
                                        + " -> " + b.bestSpace() + " B_S=" + b.benefitOnSServers());
                            }
                        }
                    }
                }
            }
        }
        assertTrue(checked >= 400, "range too small: " + checked);
        assertEquals(List.of(), failures);
    }

    /**
     * With n_h ≥ 2 n_s, large requests (16 MiB and more with the defaults; S1 saw the switch at 4 MB on its
     * testbed) are faster on HServers+SServers than on the few SServers alone, whose links are the bottleneck.
     */
    @Test
    void withManyHServersAndFewSServersLargeRequestsFavourHybridOverSServersAlone() {
        List<String> failures = new ArrayList<>();
        for (int[] servers : new int[][] {{8, 4}, {8, 2}, {16, 4}, {16, 2}, {16, 1}, {32, 4}, {32, 2}}) {
            BenefitCalculator calc = new BenefitCalculator(P, servers[0], servers[1]);
            for (int p : PROCESSES) {
                for (long s = 16L << 20; s <= (256L << 20); s *= 2) {
                    for (Op op : Op.values()) {
                        PatternBenefit b = calc.evaluate(AccessPattern.of(p, perNode(p), s, 1, op));
                        if (!(b.hybridSeconds() < b.onSServers().seconds())) {
                            failures.add("nh=" + servers[0] + " ns=" + servers[1] + " p=" + p + " s=" + s + " "
                                    + op + ": T_H+S=" + b.hybridSeconds() + " T_S=" + b.onSServers().seconds());
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), failures);
    }

    /** "With many HServers and few SServers, B can be negative" [V, S1 4.3]: 16 HServers vs 1 SServer. */
    @Test
    void withOneSServerAgainstSixteenHServersLargeRequestsHaveNegativeBenefit() {
        BenefitCalculator calc = new BenefitCalculator(P, 16, 1);
        for (int p : PROCESSES) {
            for (long s = 1 << 20; s <= (64 << 20); s *= 4) {
                PatternBenefit b = calc.evaluate(AccessPattern.of(p, perNode(p), s, 1, Op.READ));
                assertTrue(b.benefit() < 0, "p=" + p + " s=" + s + " B=" + b.benefit());
                assertEquals(ReplicaSpace.HSERVERS, b.bestSpace());
            }
        }
    }

    @Test
    void benefitIsTheLargerOfTheTwoGainsAndPicksItsSpace() {
        BenefitCalculator calc = new BenefitCalculator(P, 8, 4);
        for (long s : new long[] {16384, 64L << 20}) {
            PatternBenefit b = calc.evaluate(AccessPattern.of(64, 8, s, 3, Op.READ));
            double bs = b.onHServers().seconds() - b.onSServers().seconds();
            double bhs = b.onHServers().seconds() - b.hybridSeconds();
            assertEquals(Math.max(bs, bhs), b.benefit(), 1e-12);
            assertEquals(bs >= bhs ? ReplicaSpace.SSERVERS : ReplicaSpace.HSERVERS_PLUS_SSERVERS, b.bestSpace());
        }
    }
}
