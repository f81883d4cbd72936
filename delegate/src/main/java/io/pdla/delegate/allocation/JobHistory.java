package io.pdla.delegate.allocation;

/**
 * What the latest earlier run of an application at the same process count did, as DFRA predicts a job from
 * it. {@code metadataWaiting} is NaN when unknown (the pattern database does not record queue depths).
 *
 * @param ioProcesses N_A: processes that did I/O
 */
public record JobHistory(String application, int processes, long totalBytes, long requests, int ioProcesses,
                         IoMode mode, double metadataWaiting) {
    /** Beacon's I/O modes: one process does the I/O, every process its own file, or many processes one file. */
    public enum IoMode { ONE_ONE, N_N, N_ONE }

    public boolean metadataHeavy(DfraSettings s) {
        return !Double.isNaN(metadataWaiting) && metadataWaiting >= s.maxMetadataWaiting();
    }

    public boolean highBandwidth(DfraSettings s) {
        return totalBytes > s.minVolumeBytes();
    }

    public boolean highIops(DfraSettings s) {
        return requests >= s.highIopsRequests();
    }
}
