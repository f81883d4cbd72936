package io.pdla.costmodel;

import io.pdla.costmodel.benefit.BenefitCalculator;
import io.pdla.size.ByteSize;
import io.pdla.costmodel.benefit.PatternBenefit;
import io.pdla.costmodel.calibration.CalibrationResult;
import io.pdla.costmodel.calibration.Calibrator;
import io.pdla.costmodel.calibration.ProbePlan;
import io.pdla.costmodel.calibration.ProbeTarget;
import io.pdla.costmodel.calibration.SyntheticProbes;
import io.pdla.costmodel.hybrid.DirectStripeSearch;
import io.pdla.costmodel.hybrid.HybridCostModel;
import io.pdla.costmodel.hybrid.StripeLpSolver;
import io.pdla.costmodel.hybrid.StripeSplit;

import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;

/**
 * Prints the figures recorded in bench/RESULTS-cost-model.md (not a test; run by hand, see the module README):
 * guideline crossover tables, LP vs direct search agreement, calibration error, S-PDLA replica spaces.
 */
public final class FiguresReport {

    private static final ModelParameters P = ModelParameters.defaults();

    public static void main(String[] args) throws IOException {
        System.out.println("defaults: " + P.describe());
        layoutTable(8, new int[] {2, 4, 8, 16, 32, 64}, new long[] {4 << 10, 64 << 10, 1 << 20, 4 << 20});
        layoutTable(8, new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 64},
                new long[] {4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20});
        layoutTable(16, new int[] {1, 2, 4, 6, 8, 12, 16, 20, 24, 32, 64},
                new long[] {4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20});
        printedVersusDerived();
        lpVersusSearch();
        calibrationError();
        spaces(8, 4);
        spaces(16, 2);
    }

    private static void layoutTable(int n, int[] ps, long[] sizes) {
        LayoutCostModel model = LayoutCostModel.hdd(P, n);
        System.out.printf("%nlayout choice, n=%d HServers, m=1, read%n| p \\ s |", n);
        for (long s : sizes) {
            System.out.printf(" %s |", ByteSize.format(s));
        }
        System.out.print("\n|---|");
        for (int i = 0; i < sizes.length; i++) {
            System.out.print("---|");
        }
        System.out.println();
        for (int p : ps) {
            System.out.printf("| %d |", p);
            for (long s : sizes) {
                System.out.printf(" %s |", model.best(p, 1, s, Op.READ).describe());
            }
            System.out.println();
        }
    }

    private static void printedVersusDerived() {
        int cases = 0;
        int differ = 0;
        for (int n : new int[] {4, 8, 16, 32}) {
            LayoutCostModel derived = LayoutCostModel.hdd(P, n, TwoDConnectionTerm.DERIVED);
            LayoutCostModel printed = LayoutCostModel.hdd(P, n, TwoDConnectionTerm.PRINTED);
            for (int p = 1; p <= 8 * n; p++) {
                for (int m : new int[] {1, 4}) {
                    for (long s = 4096; s <= (64 << 20); s *= 4) {
                        cases++;
                        if (!derived.best(p, m, s, Op.READ).describe().equals(printed.best(p, m, s, Op.READ).describe())) {
                            differ++;
                        }
                    }
                }
            }
        }
        System.out.printf("%n2-D connection term: printed and derived readings choose different layouts in %d of %d "
                + "cases (n in {4,8,16,32}, p 1..8n, m in {1,4}, s 4k..64m by x4)%n", differ, cases);
    }

    private static void lpVersusSearch() {
        StripeLpSolver lp = new StripeLpSolver();
        DirectStripeSearch search = new DirectStripeSearch(1);
        int cases = 0;
        int exactToSixDigits = 0;
        double worst = 0;
        long lpNanos = 0;
        HybridCostModel warmUp = new HybridCostModel(P, 8, 4);
        for (int i = 0; i < 5000; i++) { // let the JIT compile the solver before it is timed
            lp.solve(warmUp, 1 + i % 64, 1, 4096L << (i % 10), Op.READ);
        }
        for (int nh : new int[] {1, 2, 4, 8, 16}) {
            for (int ns : new int[] {1, 2, 4, 8}) {
                HybridCostModel model = new HybridCostModel(P, nh, ns);
                for (long s : new long[] {4096, 65536, 1 << 20, 4 << 20}) {
                    for (int p : new int[] {1, 16, 128}) {
                        for (Op op : Op.values()) {
                            long t0 = System.nanoTime();
                            StripeSplit a = lp.solve(model, p, 1, s, op);
                            lpNanos += System.nanoTime() - t0;
                            StripeSplit b = search.search(model, p, 1, s, op);
                            double gap = (b.seconds() - a.seconds()) / a.seconds();
                            worst = Math.max(worst, Math.abs(gap));
                            cases++;
                            if (Math.abs(gap) < 1e-6) {
                                exactToSixDigits++;
                            }
                        }
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "%nLP vs 1-byte direct search: %d cases (nh in {1,2,4,8,16}, ns in {1,2,4,8}, "
                + "s in {4k,64k,1m,4m}, p in {1,16,128}, m=1, read+write): worst relative gap %.3g, "
                + "%d cases within 1e-6; mean LP solve %.1f us after warm-up%n", cases, worst, exactToSixDigits,
                lpNanos / 1e3 / cases);
    }

    private static void calibrationError() throws IOException {
        int seeds = 200;
        System.out.printf("%ncalibration error over %d seeds, default plan (%d probes/target), truth = defaults%n",
                seeds, ProbePlan.defaults().probeCount());
        System.out.println("| noise | median rel. error | 95th pct | worst |");
        System.out.println("|---|---|---|---|");
        for (double noise : new double[] {0.01, 0.03, 0.05, 0.10}) {
            double[] errors = new double[seeds * ProbeTarget.values().length * 2];
            int k = 0;
            for (long seed = 1; seed <= seeds; seed++) {
                CalibrationResult r = new Calibrator().calibrate(SyntheticProbes.all(P, noise, seed),
                        ProbePlan.defaults(), P.withHdd(new DeviceParameters(1, 1)));
                for (ProbeTarget t : ProbeTarget.values()) {
                    DeviceParameters want = Calibrator.pairOf(P, t);
                    DeviceParameters got = Calibrator.pairOf(r.parameters(), t);
                    errors[k++] = Math.abs(got.startupSeconds() / want.startupSeconds() - 1);
                    errors[k++] = Math.abs(got.secondsPerByte() / want.secondsPerByte() - 1);
                }
            }
            Arrays.sort(errors);
            System.out.printf(Locale.ROOT, "| %.0f %% | %.2f %% | %.2f %% | %.2f %% |%n", noise * 100,
                    100 * errors[errors.length / 2], 100 * errors[(int) (errors.length * 0.95)],
                    100 * errors[errors.length - 1]);
        }
    }

    private static void spaces(int nh, int ns) {
        BenefitCalculator calc = new BenefitCalculator(P, nh, ns);
        long[] sizes = {4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20};
        System.out.printf("%nS-PDLA replica space, %d HServers + %d SServers, m = p/8, read%n| p \\ s |", nh, ns);
        for (long s : sizes) {
            System.out.printf(" %s |", ByteSize.format(s));
        }
        System.out.print("\n|---|");
        for (int i = 0; i < sizes.length; i++) {
            System.out.print("---|");
        }
        System.out.println();
        for (int p : new int[] {8, 32, 128, 512}) {
            System.out.printf("| %d |", p);
            for (long s : sizes) {
                PatternBenefit b = calc.evaluate(AccessPattern.of(p, Math.max(1, p / 8), s, 1, Op.READ));
                System.out.printf(" %s |", switch (b.bestSpace()) {
                    case HSERVERS -> "H";
                    case SSERVERS -> "S " + b.bestLayout().describe();
                    case HSERVERS_PLUS_SSERVERS -> "H+S";
                });
            }
            System.out.println();
        }
    }
}
