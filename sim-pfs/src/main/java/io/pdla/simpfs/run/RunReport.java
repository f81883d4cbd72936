package io.pdla.simpfs.run;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.pdla.simpfs.timing.SimResult;

import java.util.List;

/**
 * The outcome of {@code pdla sim}: one {@link SimResult} per phase (write, then read, as IOR runs them), and
 * the two headline figures. A phase that did not run has bandwidth 0.
 */
@JsonPropertyOrder({"workload", "layout", "hservers", "sservers", "writeBandwidthMiBps", "readBandwidthMiBps", "phases"})
public record RunReport(String workload, String layout, int hservers, int sservers, double writeBandwidthMiBps,
                        double readBandwidthMiBps, List<SimResult> phases) {
    public RunReport {
        phases = List.copyOf(phases);
    }
}
