package io.pdla.costmodel.hybrid;

/**
 * Stripe sizes of a hybrid 1-DH replica for one request size: {@code hServerStripe} bytes on each HServer,
 * {@code sServerStripe} bytes on each SServer (n_h*s_h + n_s*s_s = s), with the modelled time of one round.
 * Stripes are real numbers here; rounding to a file-system granularity is the caller's business.
 */
public record StripeSplit(double hServerStripe, double sServerStripe, double seconds) {
}
