package io.pdla.collective;

/**
 * How a transport between JVMs moves a two-phase exchange's headers and payloads (hint {@value #HINT}): by
 * {@code Alltoallv}, every pair of ranks exchanging a message, empty ones too; or point to point, a message only where
 * there is something to say (the default: two-phase exchanges are sparse, a rank sending only to the aggregators its
 * pieces fall to). Threads of one JVM hand messages over in memory and ignore it.
 */
public enum ExchangeMode {
    ALLTOALLV, POINT_TO_POINT;

    public static final String HINT = "pdla_cb_exchange";

    public static ExchangeMode fromHint(String value) {
        if (value == null) return POINT_TO_POINT;
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "alltoallv" -> ALLTOALLV;
            case "point_to_point" -> POINT_TO_POINT;
            default -> throw new IllegalArgumentException("hint " + HINT + "=" + value + ": expected alltoallv or point_to_point");
        };
    }

    public String hintValue() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
