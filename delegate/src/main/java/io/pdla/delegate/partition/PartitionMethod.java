package io.pdla.delegate.partition;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The file-domain partitioning methods of collective I/O (formulas.md section 6; seed 004 is authoritative for
 * transpose and stripe-size I/O). Selected per file with the hint {@value #HINT}.
 */
public enum PartitionMethod {
    /** ROMIO's ADIOI_Calc_file_domains: equal contiguous domains, no regard for stripes. */
    EVEN,
    /** Even domains with every interior boundary moved to the nearest stripe multiple. */
    STRIPE_ALIGNED,
    /** Stripe k to aggregator k mod P, the same in every call whatever the region. */
    STATIC_CYCLIC,
    /** Groups of S aggregators, one stripe-aligned part of the region per group, static-cyclic inside. */
    GROUP_CYCLIC,
    /** Stripes taken server by server (column-major) and dealt to aggregators in balanced contiguous chunks. */
    TRANSPOSE;

    public static final String HINT = "pdla_fd_partition";

    /** Parses a hint value (case-insensitive); anything else is refused naming the key and the allowed values. */
    public static PartitionMethod fromHint(String value) {
        if (value != null) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            for (PartitionMethod m : values()) {
                if (m.hintValue().equals(v)) return m;
            }
        }
        throw new IllegalArgumentException("hint " + HINT + "=" + (value == null ? "null" : "'" + value + "'")
                + " is not a partitioning method; allowed: " + allowedValues());
    }

    public static String allowedValues() {
        return Arrays.stream(values()).map(PartitionMethod::hintValue).collect(Collectors.joining(", "));
    }

    public String hintValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether every domain boundary falls on a stripe boundary, so stripe-size I/O applies. */
    public boolean stripeAligned() {
        return this != EVEN;
    }
}
