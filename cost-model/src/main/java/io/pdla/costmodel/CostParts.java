package io.pdla.costmodel;

/**
 * A modelled time split as in the papers: network part (connections and transfer) plus storage part (start-ups
 * and per-byte device time). The parts are added, not overlapped [V-ocr, S1 Table 2; structure reading R].
 */
public record CostParts(double networkSeconds, double storageSeconds) {

    public double totalSeconds() {
        return networkSeconds + storageSeconds;
    }

    public CostParts plus(CostParts other) {
        return new CostParts(networkSeconds + other.networkSeconds, storageSeconds + other.storageSeconds);
    }

    public CostParts times(double factor) {
        return new CostParts(networkSeconds * factor, storageSeconds * factor);
    }
}
