package io.pdla.delegate.allocation;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * DFRA's per-job decision, with delegates in place of forwarding nodes: keep the default path, scale to
 * S = N_A / F delegates, or give the job dedicated delegates because it and a neighbour would interfere.
 * Rules, in the paper's order:
 * <ol>
 * <li>no history (a new application): the default path;</li>
 * <li>scaling: previous volume &gt; V_min, at least N_min processes doing I/O, and not metadata-bound
 *     (metadata waiting &lt; W_metadata): S = ceil(N_A / F), at most the idle delegates I;</li>
 * <li>otherwise interference with any neighbour sharing the default resources: either side N-1, either side
 *     metadata-heavy, or either side high-bandwidth or high-IOPS: dedicated delegates, the default count;</li>
 * <li>otherwise the default path.</li>
 * </ol>
 */
public final class DelegateAllocation {
    public enum Kind { DEFAULT_PATH, SCALED, DEDICATED }

    public record Decision(Kind kind, int delegates, String reason) {
        @Override
        public String toString() {
            return kind.name().toLowerCase().replace('_', ' ') + ", " + delegates + " delegate(s): " + reason;
        }
    }

    private final DfraSettings settings;

    public DelegateAllocation(DfraSettings settings) {
        this.settings = settings;
    }

    /**
     * @param history    the job's latest earlier run at the same process count, if any
     * @param neighbours latest runs of the jobs that would share the default resources
     * @param idle       delegates that can be granted (I), or {@link Integer#MAX_VALUE} when unbounded
     */
    public Decision decide(Optional<JobHistory> history, List<JobHistory> neighbours, int idle) {
        if (history.isEmpty()) return new Decision(Kind.DEFAULT_PATH, 0, "no earlier run of this application at this process count");
        JobHistory h = history.get();
        List<String> why = new ArrayList<>();
        boolean volume = h.totalBytes() > settings.minVolumeBytes();
        boolean many = h.ioProcesses() >= settings.minIoProcesses();
        boolean metadataBound = h.metadataHeavy(settings);
        if (volume && many && !metadataBound) {
            int s = (int) Math.min(Integer.MAX_VALUE, (h.ioProcesses() + (long) settings.processesPerDelegate() - 1) / settings.processesPerDelegate());
            int granted = Math.min(s, Math.max(0, idle));
            if (granted > 0) {
                return new Decision(Kind.SCALED, granted, "volume " + h.totalBytes() + " B > V_min " + settings.minVolumeBytes()
                        + ", " + h.ioProcesses() + " I/O processes >= N_min " + settings.minIoProcesses()
                        + ", not metadata-bound: S = ceil(N_A / F) = ceil(" + h.ioProcesses() + " / " + settings.processesPerDelegate() + ") = " + s
                        + (granted < s ? ", only " + granted + " idle" : ""));
            }
            why.add("eligible for " + s + " delegates but none idle");
        } else {
            if (!volume) why.add("volume " + h.totalBytes() + " B <= V_min " + settings.minVolumeBytes());
            if (!many) why.add(h.ioProcesses() + " I/O processes < N_min " + settings.minIoProcesses());
            if (metadataBound) why.add("metadata-bound (" + h.metadataWaiting() + " waiting >= W_metadata " + settings.maxMetadataWaiting() + ")");
        }
        for (JobHistory n : neighbours) {
            String conflict = interference(h, n);
            if (conflict != null) {
                int count = Math.max(1, (h.processes() + settings.processesPerDefaultDelegate() - 1) / settings.processesPerDefaultDelegate());
                count = Math.min(count, Math.max(0, idle));
                if (count > 0) {
                    why.add("interference with " + n.application() + " (" + n.processes() + " processes): " + conflict);
                    return new Decision(Kind.DEDICATED, count, String.join("; ", why));
                }
                why.add("would interfere with " + n.application() + " (" + conflict + ") but no delegate is idle");
            }
        }
        if (neighbours.isEmpty()) why.add("no neighbour to interfere with");
        return new Decision(Kind.DEFAULT_PATH, 0, String.join("; ", why));
    }

    private String interference(JobHistory self, JobHistory other) {
        if (self.mode() == JobHistory.IoMode.N_ONE) return "this job uses the N-1 I/O mode";
        if (other.mode() == JobHistory.IoMode.N_ONE) return "the neighbour uses the N-1 I/O mode";
        if (self.metadataHeavy(settings)) return "this job is metadata-heavy";
        if (other.metadataHeavy(settings)) return "the neighbour is metadata-heavy";
        if (self.highBandwidth(settings) || self.highIops(settings)) return "this job is high-bandwidth or high-IOPS";
        if (other.highBandwidth(settings) || other.highIops(settings)) return "the neighbour is high-bandwidth or high-IOPS";
        return null;
    }
}
