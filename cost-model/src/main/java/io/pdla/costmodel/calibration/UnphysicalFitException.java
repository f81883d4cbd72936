package io.pdla.costmodel.calibration;

/**
 * The least-squares fit produced a negative time, so the probes do not follow the model (too noisy, too few
 * sizes, or a device whose cost is not start-up plus per-byte). Distinct from bad input, which is an
 * {@link IllegalArgumentException}.
 */
public final class UnphysicalFitException extends RuntimeException {

    private final ProbeTarget target;
    private final String parameter;
    private final double value;

    public UnphysicalFitException(ProbeTarget target, String parameter, double value) {
        super("calibration of " + target.label() + " gave " + parameter + " = " + value
                + " (< 0): the probes do not fit startup + size*perByte");
        this.target = target;
        this.parameter = parameter;
        this.value = value;
    }

    public ProbeTarget target() {
        return target;
    }

    public String parameter() {
        return parameter;
    }

    public double value() {
        return value;
    }
}
