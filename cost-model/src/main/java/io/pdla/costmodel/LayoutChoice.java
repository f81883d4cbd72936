package io.pdla.costmodel;

import io.pdla.storage.Layout.Distribution;

import java.io.Serializable;
import java.util.Objects;

/**
 * A layout with its group count (only meaningful for 2-D; 1 for 1-DH and the server count for 1-DV,
 * which are the two extreme 2-D group counts) and the modelled time in seconds.
 */
public record LayoutChoice(Distribution layout, int groups, double seconds) implements Serializable {

    public LayoutChoice {
        Objects.requireNonNull(layout, "layout");
        Checks.positive("groups", groups);
        Checks.nonNegative("seconds", seconds);
    }

    /** {@code 1-DH}, {@code 1-DV} or {@code 2-D (g=G)}: the form printed by {@code pdla cost}. */
    public String describe() {
        return layout == Distribution.TWO_D ? layout.label() + " (g=" + groups + ")" : layout.label();
    }
}
