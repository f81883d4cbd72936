package io.pdla.costmodel;

import java.util.Locale;

/** Parses and prints byte counts with binary suffixes: {@code 4k} = 4096, {@code 1m} = 1 MiB, {@code 2g} = 2 GiB. */
public final class ByteSizes {

    private ByteSizes() {
    }

    /** Accepts a plain number or a number followed by k, m, g (optionally KiB/KB/MiB/... ; all binary). */
    public static long parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("size must not be empty, was " + text);
        }
        String t = text.trim().toLowerCase(Locale.ROOT);
        t = t.endsWith("ib") ? t.substring(0, t.length() - 2) : t.endsWith("b") ? t.substring(0, t.length() - 1) : t;
        long unit = 1;
        if (!t.isEmpty()) {
            char last = t.charAt(t.length() - 1);
            switch (last) {
                case 'k': unit = 1L << 10; break;
                case 'm': unit = 1L << 20; break;
                case 'g': unit = 1L << 30; break;
                default: break;
            }
            if (unit != 1) {
                t = t.substring(0, t.length() - 1);
            }
        }
        long number;
        try {
            number = Long.parseLong(t.trim());
        } catch (NumberFormatException ex) {
            throw new IllegalArgumentException("size must be a number with optional k/m/g suffix, was " + text, ex);
        }
        if (number < 0 || number > Long.MAX_VALUE / unit) {
            throw new IllegalArgumentException("size out of range, was " + text);
        }
        return number * unit;
    }

    /** Shortest exact form: 4096 -> {@code 4k}, 1048576 -> {@code 1m}, 1000 -> {@code 1000}. */
    public static String format(long bytes) {
        if (bytes != 0 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "g";
        }
        if (bytes != 0 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "m";
        }
        if (bytes != 0 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "k";
        }
        return Long.toString(bytes);
    }
}
