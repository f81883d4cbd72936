package io.pdla.delegate.allocation;

import io.pdla.intercept.Environment;

/**
 * The parameters of DFRA's rules (Ji et al., FAST 2019), each a setting (environment variable or
 * {@code -Dpdla.env.NAME}) with the value deployed on TaihuLight as default where the paper publishes one.
 *
 * @param minVolumeBytes     V_min: previous run's I/O volume above which more delegates may pay (20 GB)
 * @param minIoProcesses     N_min: processes doing I/O needed for scaling (32)
 * @param processesPerDelegate F = B_f / B_c: how many processes' bandwidth one delegate carries (32)
 * @param maxMetadataWaiting W_metadata: average metadata operations waiting above which a job is
 *                           metadata-bound / metadata-heavy (32, twice the forwarding node's thread pool)
 * @param processesPerDefaultDelegate the default mapping, whose count dedicated delegates take: one per
 *                           512 processes, as TaihuLight's 512:1 (at least one)
 * @param highIopsRequests   requests of the previous run from which a job counts as high-IOPS. The paper
 *                           labels jobs by empirical thresholds it does not publish: this default (10^6) is ours
 */
public record DfraSettings(long minVolumeBytes, int minIoProcesses, int processesPerDelegate, double maxMetadataWaiting,
                           int processesPerDefaultDelegate, long highIopsRequests) {
    public static final DfraSettings PUBLISHED = new DfraSettings(20L << 30, 32, 32, 32, 512, 1_000_000);

    public DfraSettings {
        if (minVolumeBytes < 0 || minIoProcesses < 1 || processesPerDelegate < 1 || maxMetadataWaiting < 0
                || processesPerDefaultDelegate < 1 || highIopsRequests < 1) {
            throw new IllegalArgumentException("DFRA settings out of range: " + this);
        }
    }

    public static DfraSettings fromEnvironment() {
        DfraSettings d = PUBLISHED;
        return new DfraSettings(
                io.pdla.size.ByteSize.parse(Environment.get("PDLA_DFRA_V_MIN_BYTES"), "setting PDLA_DFRA_V_MIN_BYTES", d.minVolumeBytes),
                (int) number("PDLA_DFRA_N_MIN", d.minIoProcesses),
                (int) number("PDLA_DFRA_F", d.processesPerDelegate),
                number("PDLA_DFRA_W_METADATA", (long) d.maxMetadataWaiting),
                (int) number("PDLA_DFRA_PROCESSES_PER_DEFAULT_DELEGATE", d.processesPerDefaultDelegate),
                number("PDLA_DFRA_HIGH_IOPS_REQUESTS", d.highIopsRequests));
    }

    private static long number(String name, long fallback) {
        String v = Environment.get(name);
        if (v == null || v.isBlank()) return fallback;
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("setting " + name + "='" + v + "' is not a whole number");
        }
    }
}
