package io.pdla.simpfs.config;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * One SSD server's device: a start-up time and a per-byte time, different for reads and writes (SSD writes
 * pay for erase and garbage collection). Up to {@code channels} commands are in service at once: their
 * start-ups (flash access on separate channels) overlap, while their bytes share the device's one transfer
 * rate. {@code channels = 1} serves one command at a time. Defaults: a SATA SSD of 2012-2014 (see README).
 */
public record SsdParams(double readStartupMs, double readMBps, double writeStartupMs, double writeMBps, int channels) {
    public static final SsdParams DEFAULT = new SsdParams(0.1, 500, 0.25, 300, 8);

    public SsdParams {
        Check.nonNegative("ssd.readStartupMs", readStartupMs);
        Check.positive("ssd.readMBps", readMBps);
        Check.nonNegative("ssd.writeStartupMs", writeStartupMs);
        Check.positive("ssd.writeMBps", writeMBps);
        if (channels < 1) throw new ConfigException("ssd.channels must be >= 1, was " + channels);
    }

    public SsdParams withChannels(int n) {
        return new SsdParams(readStartupMs, readMBps, writeStartupMs, writeMBps, n);
    }

    public double seconds(boolean write, long bytes) {
        return startupSeconds(write) + bytes * secondsPerByte(write);
    }

    public double startupSeconds(boolean write) {
        return (write ? writeStartupMs : readStartupMs) / 1000.0;
    }

    public double secondsPerByte(boolean write) {
        return 1.0 / ((write ? writeMBps : readMBps) * 1e6);
    }
}
