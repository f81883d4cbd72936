package io.pdla.bench.ior;

import java.util.Locale;

/** IOR's size syntax: a decimal count with an optional k, m or g suffix (binary: 1k = 1024). */
public final class Sizes {
    private Sizes() {
    }

    public static long parse(String text) {
        if (text == null || text.isBlank()) throw new IllegalArgumentException("empty size");
        String s = text.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        char last = s.charAt(s.length() - 1);
        switch (last) {
            case 'k' -> unit = 1L << 10;
            case 'm' -> unit = 1L << 20;
            case 'g' -> unit = 1L << 30;
            default -> {
            }
        }
        String digits = unit == 1 ? s : s.substring(0, s.length() - 1);
        if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException("'" + text + "' is not a size (a number with an optional k, m or g suffix)");
        }
        try {
            return Math.multiplyExact(Long.parseLong(digits), unit);
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is too large", e);
        }
    }

    /** A short human form for output: 16 KiB, 1 MiB, 1536 B. */
    public static String human(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) return (bytes >> 30) + " GiB";
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) return (bytes >> 20) + " MiB";
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) return (bytes >> 10) + " KiB";
        return bytes + " B";
    }
}
