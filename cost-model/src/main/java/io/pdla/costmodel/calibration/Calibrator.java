package io.pdla.costmodel.calibration;

import io.pdla.costmodel.DeviceParameters;
import io.pdla.costmodel.ModelParameters;
import io.pdla.costmodel.NetworkParameters;
import io.pdla.costmodel.Op;
import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Fits the model parameters by least squares from timed probes [R; PSA measures the same parameters by averaging
 * repeated tests, V, S7 III-D]. For each {@link ProbeTarget} the probes follow
 * {@code t = c*(x0 + s*x1)}; we solve it with Commons Math's {@link OLSMultipleLinearRegression} (no intercept)
 * after dividing every row by its observed time, i.e. we minimise relative rather than absolute residuals.
 * Why: timings vary by orders of magnitude across the grid (4 KiB vs 4 MiB, c = 1 vs 8), and with
 * unweighted least squares the largest probes would dictate the fit and leave the start-up time, which only
 * the small probes reveal, at the mercy of their noise.
 */
public final class Calibrator {

    /** Sizes enter the regression in MiB so the two columns have similar magnitudes. */
    private static final double SIZE_UNIT_BYTES = 1 << 20;

    public CalibrationResult calibrate(Map<ProbeTarget, ProbeRunner> runners, ProbePlan plan,
                                       ModelParameters fallback) throws IOException {
        Objects.requireNonNull(runners, "runners");
        Objects.requireNonNull(plan, "plan");
        ModelParameters params = Objects.requireNonNull(fallback, "fallback");
        Map<ProbeTarget, LinearFit> fits = new EnumMap<>(ProbeTarget.class);
        for (Map.Entry<ProbeTarget, ProbeRunner> e : runners.entrySet()) {
            LinearFit fit = fit(e.getKey(), measure(e.getValue(), plan));
            fits.put(e.getKey(), fit);
            params = apply(params, fit);
        }
        return new CalibrationResult(params, fits);
    }

    /** Runs the whole grid, sizes outermost, in plan order. */
    public List<ProbeObservation> measure(ProbeRunner runner, ProbePlan plan) throws IOException {
        List<ProbeObservation> out = new ArrayList<>(plan.probeCount());
        for (long s : plan.sizes()) {
            for (int c : plan.concurrencies()) {
                for (int r = 0; r < plan.repetitions(); r++) {
                    double t = runner.measureSeconds(s, c);
                    if (!(t > 0) || Double.isInfinite(t)) {
                        throw new IllegalArgumentException(
                                "probe of size " + s + " x " + c + " must take a finite time > 0, was " + t);
                    }
                    out.add(new ProbeObservation(s, c, t));
                }
            }
        }
        return out;
    }

    public LinearFit fit(ProbeTarget target, List<ProbeObservation> observations) {
        int n = observations.size();
        if (n < 2) {
            throw new IllegalArgumentException("observations must number at least 2, was " + n);
        }
        double[] y = new double[n];
        double[][] x = new double[n][2];
        for (int i = 0; i < n; i++) {
            ProbeObservation o = observations.get(i);
            y[i] = 1;
            x[i][0] = o.concurrency() / o.seconds();
            x[i][1] = o.concurrency() * (o.size() / SIZE_UNIT_BYTES) / o.seconds();
        }
        OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
        ols.setNoIntercept(true);
        ols.newSampleData(y, x);
        double[] beta = ols.estimateRegressionParameters();
        double startup = beta[0];
        double perByte = beta[1] / SIZE_UNIT_BYTES;
        if (startup < 0) {
            throw new UnphysicalFitException(target, "startupSeconds", startup);
        }
        if (perByte < 0) {
            throw new UnphysicalFitException(target, "secondsPerByte", perByte);
        }
        List<Double> residuals = new ArrayList<>(n);
        for (ProbeObservation o : observations) {
            residuals.add(o.seconds() - o.concurrency() * (startup + o.size() * perByte));
        }
        return new LinearFit(target, startup, perByte, observations, residuals);
    }

    private static ModelParameters apply(ModelParameters p, LinearFit fit) {
        switch (fit.target()) {
            case NETWORK:
                return p.withNetwork(new NetworkParameters(fit.startupSeconds(), fit.secondsPerByte()));
            case HDD:
                return p.withHdd(fit.asDevice());
            case SSD_READ:
                return p.withSsd(Op.READ, fit.asDevice());
            case SSD_WRITE:
                return p.withSsd(Op.WRITE, fit.asDevice());
            default:
                throw new AssertionError(fit.target());
        }
    }

    /** The (startup, perByte) pair a target describes in {@code p}: what a probe of that target should follow. */
    public static DeviceParameters pairOf(ModelParameters p, ProbeTarget target) {
        switch (target) {
            case NETWORK:
                return new DeviceParameters(p.network().connectSeconds(), p.network().secondsPerByte());
            case HDD:
                return p.hdd();
            case SSD_READ:
                return p.ssdRead();
            case SSD_WRITE:
                return p.ssdWrite();
            default:
                throw new AssertionError(target);
        }
    }
}
