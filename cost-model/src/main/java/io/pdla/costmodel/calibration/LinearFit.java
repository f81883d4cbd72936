package io.pdla.costmodel.calibration;

import io.pdla.costmodel.DeviceParameters;

import java.util.List;

/**
 * Result of fitting {@code seconds = c*(startup + size*perByte)} to one target's probes, with the residuals
 * ({@code observed - predicted}, seconds) in observation order.
 */
public record LinearFit(ProbeTarget target, double startupSeconds, double secondsPerByte,
                        List<ProbeObservation> observations, List<Double> residualSeconds) {

    public LinearFit {
        observations = List.copyOf(observations);
        residualSeconds = List.copyOf(residualSeconds);
    }

    public double predictSeconds(long size, int concurrency) {
        return concurrency * (startupSeconds + size * secondsPerByte);
    }

    /** Root mean square of the residuals relative to the observed times. */
    public double rmsRelativeResidual() {
        double sum = 0;
        for (int i = 0; i < observations.size(); i++) {
            double r = residualSeconds.get(i) / observations.get(i).seconds();
            sum += r * r;
        }
        return Math.sqrt(sum / observations.size());
    }

    /** Largest |residual| relative to the observed time. */
    public double maxRelativeResidual() {
        double max = 0;
        for (int i = 0; i < observations.size(); i++) {
            max = Math.max(max, Math.abs(residualSeconds.get(i) / observations.get(i).seconds()));
        }
        return max;
    }

    public DeviceParameters asDevice() {
        return new DeviceParameters(startupSeconds, secondsPerByte);
    }
}
