package io.pdla.costmodel.calibration;

import io.pdla.costmodel.ModelParameters;

import java.util.Map;

/** Fitted parameters (targets not probed keep their fallback values) and the fit of each probed target. */
public record CalibrationResult(ModelParameters parameters, Map<ProbeTarget, LinearFit> fits) {

    public CalibrationResult {
        fits = Map.copyOf(fits);
    }
}
