package io.pdla.costmodel.calibration;

import io.pdla.costmodel.Checks;

import java.util.List;
import java.util.TreeSet;

/**
 * The probe grid: every size times every concurrency, each repeated {@code repetitions} times.
 * At least two distinct sizes are needed to separate start-up from per-byte time.
 */
public record ProbePlan(List<Long> sizes, List<Integer> concurrencies, int repetitions) {

    public ProbePlan {
        sizes = List.copyOf(sizes);
        concurrencies = List.copyOf(concurrencies);
        for (long s : sizes) {
            Checks.positive("probe size", s);
        }
        for (int c : concurrencies) {
            Checks.positive("probe concurrency", c);
        }
        Checks.positive("repetitions", repetitions);
        if (new TreeSet<>(sizes).size() < 2) {
            throw new IllegalArgumentException("probe sizes must contain at least 2 distinct values, was " + sizes);
        }
        if (concurrencies.isEmpty()) {
            throw new IllegalArgumentException("probe concurrencies must not be empty, was " + concurrencies);
        }
    }

    /** 4 KiB to 4 MiB by factors of 4 (straddling the a/b break-even of disks), concurrency 1-8, 3 repetitions. */
    public static ProbePlan defaults() {
        return new ProbePlan(List.of(4096L, 16384L, 65536L, 262144L, 1048576L, 4194304L),
                List.of(1, 2, 4, 8), 3);
    }

    public int probeCount() {
        return sizes.size() * concurrencies.size() * repetitions;
    }
}
