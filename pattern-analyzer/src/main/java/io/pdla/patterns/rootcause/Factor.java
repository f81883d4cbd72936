package io.pdla.patterns.rootcause;

/**
 * A contributing factor's value averaged over the critical files weighted by their exclusive time
 * (IOMiner Eq. 2), and the share of the critical path the files that had the counter cover.
 *
 * @param value    weighted average, or null when no critical file had the counter
 * @param coverage fraction of critical-path time whose files had the counter (1 = all)
 */
public record Factor(String name, Double value, double coverage, String meaning) {
}
