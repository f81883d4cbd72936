package io.pdla.simpfs.config;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * One HDD server's disk. Seek time grows with the square root of the head's travel (the usual short-seek
 * curve): {@code trackToTrack + (fullStroke - trackToTrack) * sqrt(distance / capacity)}; any access that
 * does not start where the previous one ended also waits half a revolution on average.
 *
 * <p>Zoned recording: the media rate falls linearly with the address from {@code transferMBps} (outer zone,
 * address 0) to {@code innerTransferMBps} (the last address). The drive has a segmented cache of
 * {@code cacheKB} in {@code cacheSegments} segments: a read that continues a cached stream (it starts where a
 * segment or the head ended) reads ahead to fill its segment, and reads inside a segment are served at the
 * interface rate {@code interfaceMBps} without touching the media. The drive accepts {@code queueDepth}
 * commands (NCQ) and serves cache hits first, then the queued command nearest ahead of the head (C-LOOK).
 * {@code cacheKB = 0} and {@code queueDepth = 1} give a drive without cache and with FIFO service.
 * Defaults: a 250 GB 7200 RPM SATA-II disk of the papers' testbeds (datasheet-class figures, see README).
 */
public record HddParams(double rpm, double trackToTrackMs, double fullStrokeMs, double transferMBps,
                        double capacityGB, double commandOverheadMs, double innerTransferMBps, int cacheKB,
                        int cacheSegments, int queueDepth, double interfaceMBps) {
    public static final HddParams DEFAULT = new HddParams(7200, 1.0, 18.0, 90, 250, 0.0, 50, 8192, 16, 32, 300);

    /** The disk without cache, read-ahead, zones or reordering: the model before issue 17. */
    public static final HddParams PLAIN = DEFAULT.plain();

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
        Check.positive("hdd.innerTransferMBps", innerTransferMBps);
        if (innerTransferMBps > transferMBps) {
            throw new ConfigException("hdd.innerTransferMBps (" + innerTransferMBps + ") must be <= hdd.transferMBps (" + transferMBps
                    + "), the outer zone's rate");
        }
        if (cacheKB < 0) throw new ConfigException("hdd.cacheKB must be >= 0, was " + cacheKB);
        if (cacheSegments < 1) throw new ConfigException("hdd.cacheSegments must be >= 1, was " + cacheSegments);
        if (queueDepth < 1) throw new ConfigException("hdd.queueDepth must be >= 1, was " + queueDepth);
        Check.positive("hdd.interfaceMBps", interfaceMBps);
    }

    /** This disk without cache, zones and reordering. */
    public HddParams plain() {
        return new HddParams(rpm, trackToTrackMs, fullStrokeMs, transferMBps, capacityGB, commandOverheadMs,
                transferMBps, 0, 1, 1, interfaceMBps);
    }

    public HddParams withCache(int kb, int segments) {
        return new HddParams(rpm, trackToTrackMs, fullStrokeMs, transferMBps, capacityGB, commandOverheadMs,
                innerTransferMBps, kb, segments, queueDepth, interfaceMBps);
    }

    public HddParams withQueueDepth(int depth) {
        return new HddParams(rpm, trackToTrackMs, fullStrokeMs, transferMBps, capacityGB, commandOverheadMs,
                innerTransferMBps, cacheKB, cacheSegments, depth, interfaceMBps);
    }

    public HddParams withZones(double outerMBps, double innerMBps) {
        return new HddParams(rpm, trackToTrackMs, fullStrokeMs, outerMBps, capacityGB, commandOverheadMs,
                innerMBps, cacheKB, cacheSegments, queueDepth, interfaceMBps);
    }

    @JsonIgnore
    public double revolutionSeconds() {
        return 60.0 / rpm;
    }

    @JsonIgnore
    public double capacityBytes() {
        return capacityGB * 1e9;
    }

    /** Seconds per byte in the outer zone (address 0). */
    @JsonIgnore
    public double secondsPerByte() {
        return 1.0 / (transferMBps * 1e6);
    }

    /** Seconds per byte at disk address {@code address}: the zone rate falls linearly to the inner zone's. */
    public double secondsPerByteAt(long address) {
        double f = Math.min(1.0, Math.max(0.0, address / capacityBytes()));
        return 1.0 / ((transferMBps - (transferMBps - innerTransferMBps) * f) * 1e6);
    }

    /** Bytes per cache segment (0 without a cache): the most one read-ahead fills. */
    @JsonIgnore
    public long segmentBytes() {
        return (long) cacheKB * 1024 / cacheSegments;
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
