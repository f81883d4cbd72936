package io.pdla.simpfs.layout;

import io.pdla.simpfs.config.ConfigException;

import java.util.Locale;

/** Which servers a file's data may live on: HDD servers, SSD servers, or both. */
public enum ServerClass {
    HDD, SSD, BOTH;

    public static ServerClass parse(String text, String where) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "hdd", "hservers", "h" -> HDD;
            case "ssd", "sservers", "s" -> SSD;
            case "both", "hybrid", "hdd+ssd" -> BOTH;
            default -> throw new ConfigException(where + ": server class '" + text + "' is not one of hdd, ssd, both");
        };
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
