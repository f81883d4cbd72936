package io.pdla.costmodel.calibration;

/** One timed probe: {@code concurrency} requests of {@code size} bytes took {@code seconds}. */
public record ProbeObservation(long size, int concurrency, double seconds) {
}
