package io.pdla.simpfs.config;

/**
 * One SSD server's device: a start-up time and a per-byte time, different for reads and writes (SSD writes
 * pay for erase and garbage collection). Defaults: a SATA SSD of 2012-2014 (see README).
 */
public record SsdParams(double readStartupMs, double readMBps, double writeStartupMs, double writeMBps) {
    public static final SsdParams DEFAULT = new SsdParams(0.1, 500, 0.25, 300);

    public SsdParams {
        Check.nonNegative("ssd.readStartupMs", readStartupMs);
        Check.positive("ssd.readMBps", readMBps);
        Check.nonNegative("ssd.writeStartupMs", writeStartupMs);
        Check.positive("ssd.writeMBps", writeMBps);
    }

    public double seconds(boolean write, long bytes) {
        return write ? writeStartupMs / 1000.0 + bytes / (writeMBps * 1e6)
                : readStartupMs / 1000.0 + bytes / (readMBps * 1e6);
    }
}
