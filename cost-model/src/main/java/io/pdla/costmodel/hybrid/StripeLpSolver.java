package io.pdla.costmodel.hybrid;

import io.pdla.costmodel.Checks;
import io.pdla.costmodel.DeviceParameters;
import io.pdla.costmodel.ModelParameters;
import io.pdla.costmodel.Op;
import org.apache.commons.math3.optim.MaxIter;
import org.apache.commons.math3.optim.PointValuePair;
import org.apache.commons.math3.optim.linear.LinearConstraint;
import org.apache.commons.math3.optim.linear.LinearConstraintSet;
import org.apache.commons.math3.optim.linear.LinearObjectiveFunction;
import org.apache.commons.math3.optim.linear.NonNegativeConstraint;
import org.apache.commons.math3.optim.linear.Relationship;
import org.apache.commons.math3.optim.linear.SimplexSolver;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;

import java.util.ArrayList;
import java.util.List;

/**
 * Optimal stripe sizes of the hybrid model as a linear program [V, S1 4.2.2: "the max terms can be written as
 * linear inequalities"; the LP itself is our formulation, R, formulas.md 2.3]. The connection term is a constant,
 * so we minimise {@code v*X + p*Y} subject to
 * <pre>
 * n_h*s_h + n_s*s_s = s
 * X &ge; m*s,  X &ge; p*s_h,  X &ge; p*s_s            (X = bytes through the busiest endpoint)
 * Y &ge; a_h + b_h*s_h,  Y &ge; a_s + b_s*s_s         (Y = time of the slowest server's sub-request)
 * s_h, s_s &ge; 0
 * </pre>
 * solved with Commons Math's {@link SimplexSolver}. The problem is always feasible and bounded below, so the
 * solver's {@code NoFeasibleSolutionException} / {@code UnboundedSolutionException} would signal a bug and are
 * left to propagate. With one server class empty the split is forced and no LP is needed.
 */
public final class StripeLpSolver {

    /**
     * Simplex convergence epsilon. Variables are scaled so that stripes are fractions of s and times are in
     * units of one HDD sub-request, which keeps every coefficient near 1 and lets a tight epsilon work.
     */
    private static final double SIMPLEX_EPSILON = 1e-9;
    /** ULPs within which two simplex values count as equal (Commons Math's default is 10). */
    private static final int SIMPLEX_MAX_ULPS = 10;
    /** Values below this are treated as zero pivots. */
    private static final double SIMPLEX_CUTOFF = 1e-12;
    private static final int MAX_ITERATIONS = 1000;

    public StripeSplit solve(HybridCostModel model, int p, int m, long s, Op op) {
        Checks.positive("processes (p)", p);
        Checks.positive("processes per client node (m)", m);
        Checks.positive("request size (s)", s);
        if (model.sServers() == 0 || model.hServers() == 0) {
            double forced = model.minHServerStripe(s);
            return model.split(p, m, s, op, forced);
        }
        ModelParameters params = model.params();
        DeviceParameters h = params.hdd();
        DeviceParameters d = params.ssd(op);
        int nh = model.hServers();
        int ns = model.sServers();
        double v = params.network().secondsPerByte();
        double timeUnit = h.requestSeconds((double) s / nh) + d.requestSeconds((double) s / ns);
        if (!(timeUnit > 0)) {
            timeUnit = 1;
        }
        // unknowns: u_h = s_h/s, u_s = s_s/s, x = X/s, y = Y/timeUnit
        LinearObjectiveFunction objective = new LinearObjectiveFunction(
                new double[] {0, 0, v * s / timeUnit, p}, 0);
        List<LinearConstraint> constraints = new ArrayList<>();
        constraints.add(new LinearConstraint(new double[] {nh, ns, 0, 0}, Relationship.EQ, 1));
        constraints.add(new LinearConstraint(new double[] {0, 0, 1, 0}, Relationship.GEQ, m));
        constraints.add(new LinearConstraint(new double[] {-p, 0, 1, 0}, Relationship.GEQ, 0));
        constraints.add(new LinearConstraint(new double[] {0, -p, 1, 0}, Relationship.GEQ, 0));
        constraints.add(new LinearConstraint(new double[] {-h.secondsPerByte() * s / timeUnit, 0, 0, 1},
                Relationship.GEQ, h.startupSeconds() / timeUnit));
        constraints.add(new LinearConstraint(new double[] {0, -d.secondsPerByte() * s / timeUnit, 0, 1},
                Relationship.GEQ, d.startupSeconds() / timeUnit));
        PointValuePair optimum = new SimplexSolver(SIMPLEX_EPSILON, SIMPLEX_MAX_ULPS, SIMPLEX_CUTOFF).optimize(
                new MaxIter(MAX_ITERATIONS), objective, new LinearConstraintSet(constraints),
                GoalType.MINIMIZE, new NonNegativeConstraint(true));
        double sh = clamp(optimum.getPoint()[0] * s, 0, model.maxHServerStripe(s));
        // the cost is re-evaluated from the model so LP and direct search are compared on the same function
        return model.split(p, m, s, op, sh);
    }

    private static double clamp(double x, double lo, double hi) {
        return Math.max(lo, Math.min(hi, x));
    }
}
