package io.pdla.simpfs.layout;

import io.pdla.simpfs.config.ConfigException;

import java.util.Locale;

/** Byte sizes written the way IOR and Lustre tools accept them: {@code 65536}, {@code 64k}, {@code 512m}, {@code 1g}. */
public final class Sizes {
    private Sizes() {
    }

    public static long parse(String text, String where) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.endsWith("ib")) t = t.substring(0, t.length() - 2);
        else if (t.endsWith("b") && t.length() > 1 && !Character.isDigit(t.charAt(t.length() - 2))) t = t.substring(0, t.length() - 1);
        long mult = 1;
        if (!t.isEmpty()) {
            char last = t.charAt(t.length() - 1);
            switch (last) {
                case 'k' -> mult = 1L << 10;
                case 'm' -> mult = 1L << 20;
                case 'g' -> mult = 1L << 30;
                case 't' -> mult = 1L << 40;
                default -> mult = 1;
            }
            if (mult != 1) t = t.substring(0, t.length() - 1);
        }
        try {
            long v = Long.parseLong(t);
            if (v < 0) throw new ConfigException(where + ": size '" + text + "' is negative");
            return Math.multiplyExact(v, mult);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new ConfigException(where + ": '" + text + "' is not a size (examples: 65536, 64k, 512m, 1g)", e);
        }
    }

    public static String format(long bytes) {
        if (bytes > 0 && bytes % (1L << 30) == 0) return (bytes >> 30) + "g";
        if (bytes > 0 && bytes % (1L << 20) == 0) return (bytes >> 20) + "m";
        if (bytes > 0 && bytes % (1L << 10) == 0) return (bytes >> 10) + "k";
        return Long.toString(bytes);
    }
}
