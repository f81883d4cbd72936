package io.pdla.simpfs.layout;

import io.pdla.simpfs.config.ConfigException;

/** How a file is spread over its servers (OrangeFS-style distributions, PDLA's names). */
public enum Distribution {
    /** Simple striping over every server of the class. */
    ONE_DH("1-DH"),
    /** Each process region on one server, regions dealt round-robin. */
    ONE_DV("1-DV"),
    /** Regions dealt round-robin to groups of servers, striped inside the group. */
    TWO_D("2-D"),
    /** Striping over HDD and SSD servers with a strip {@code sh} per HServer and {@code ss} per SServer. */
    HYBRID("hybrid");

    private final String label;

    Distribution(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static Distribution parse(String text, String where) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT).replace("-", "");
        return switch (t) {
            case "1dh", "simple", "stripe" -> ONE_DH;
            case "1dv" -> ONE_DV;
            case "2d" -> TWO_D;
            case "hybrid", "varied" -> HYBRID;
            default -> throw new ConfigException(where + ": layout kind '" + text + "' is not one of 1dh, 1dv, 2d, hybrid");
        };
    }
}
