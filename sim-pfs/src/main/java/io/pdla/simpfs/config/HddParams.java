package io.pdla.simpfs.config;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * One HDD server's disk. Seek time grows with the square root of the head's travel (the usual short-seek
 * curve): {@code trackToTrack + (fullStroke - trackToTrack) * sqrt(distance / capacity)}; any access that
 * does not start where the previous one ended also waits half a revolution on average.
 * Defaults: a 250 GB 7200 RPM SATA-II disk of the papers' testbeds (datasheet-class figures, see README).
 */
public record HddParams(double rpm, double trackToTrackMs, double fullStrokeMs, double transferMBps,
                        double capacityGB, double commandOverheadMs) {
    public static final HddParams DEFAULT = new HddParams(7200, 1.0, 18.0, 90, 250, 0.0);

    public HddParams {
        Check.positive("hdd.rpm", rpm);
        Check.nonNegative("hdd.trackToTrackMs", trackToTrackMs);
        Check.nonNegative("hdd.fullStrokeMs", fullStrokeMs);
        if (fullStrokeMs < trackToTrackMs) {
            throw new ConfigException("hdd.fullStrokeMs (" + fullStrokeMs + ") must be >= hdd.trackToTrackMs (" + trackToTrackMs + ")");
        }
        Check.positive("hdd.transferMBps", transferMBps);
        Check.positive("hdd.capacityGB", capacityGB);
        Check.nonNegative("hdd.commandOverheadMs", commandOverheadMs);
    }

    @JsonIgnore
    public double revolutionSeconds() {
        return 60.0 / rpm;
    }

    @JsonIgnore
    public double capacityBytes() {
        return capacityGB * 1e9;
    }

    @JsonIgnore
    public double secondsPerByte() {
        return 1.0 / (transferMBps * 1e6);
    }

    /** Seek time in seconds for a head movement of {@code distance} bytes of disk address. */
    public double seekSeconds(long distance) {
        if (distance == 0) return 0;
        double fraction = Math.min(1.0, Math.abs((double) distance) / capacityBytes());
        return (trackToTrackMs + (fullStrokeMs - trackToTrackMs) * Math.sqrt(fraction)) / 1000.0;
    }

    /**
     * Mean seek time between two addresses drawn uniformly from a span of {@code spanBytes}:
     * E[sqrt|x-y|] over the unit square is 8/15, so the mean is {@code t2t + (full - t2t) * 8/15 * sqrt(span/capacity)}.
     */
    public double meanRandomSeekSeconds(long spanBytes) {
        double fraction = Math.min(1.0, spanBytes / capacityBytes());
        return (trackToTrackMs + (fullStrokeMs - trackToTrackMs) * (8.0 / 15.0) * Math.sqrt(fraction)) / 1000.0;
    }
}
