package io.pdla.size;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one grammar for byte sizes in commands, hints and config files, and the one way to print them.
 * <p>
 * Grammar (case-insensitive, surrounding blanks ignored): a whole number of bytes, optionally followed by a
 * unit, with or without a blank in between. Units are binary multiples: {@code k}, {@code kb}, {@code kib}
 * = 2<sup>10</sup>; {@code m}, {@code mb}, {@code mib} = 2<sup>20</sup>; {@code g}, {@code gb}, {@code gib} =
 * 2<sup>30</sup>; {@code t}, {@code tb}, {@code tib} = 2<sup>40</sup>; {@code b} = bytes. So {@code 16kB} is
 * 16384, as IOR's {@code -b 16k} and Lustre's {@code lfs setstripe -S 1M} read it: every tool this project
 * imitates counts storage in binary units, and a second, decimal reading would make {@code 16k} and
 * {@code 16kB} differ by 2.4 %. Negative numbers, fractions and values beyond {@link Long#MAX_VALUE} are
 * errors.
 * <p>
 * {@link #format} prints the largest binary unit that divides the value exactly ({@code 64KiB},
 * {@code 4MiB}, {@code 1536B}); what it prints parses back to the same value. {@link #formatIorStyle} is the
 * short form the benchmarks name request sizes in ({@code 16k}, {@code 4m}), which parses back too.
 */
public final class ByteSize {
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmgt]?)(i?b)?");
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};
    /** What an error message offers as valid examples. */
    public static final String EXAMPLES = "65536, 64k, 16KiB, 4m, 1g, 1t";

    private ByteSize() {
    }

    /**
     * The number of bytes {@code text} stands for.
     *
     * @param what names where the text came from (an option, a hint key, a config setting) for the error
     * @throws Invalid naming {@code what} and the text when it is not a size
     */
    public static long parse(String text, String what) {
        if (text == null || text.isBlank()) throw new Invalid(what, "a size is required, was " + (text == null ? "nothing" : "'" + text + "'"));
        Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches() || (m.group(2).isEmpty() && m.group(3) != null && m.group(3).equals("ib"))) {
            throw new Invalid(what, "'" + text + "' is not a size (a whole number of bytes with an optional "
                    + "binary unit k, m, g, t; e.g. " + EXAMPLES + ")");
        }
        int shift = switch (m.group(2)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        try {
            long number = Long.parseLong(m.group(1));
            if (number > (Long.MAX_VALUE >> shift)) throw new NumberFormatException();
            return number << shift;
        } catch (NumberFormatException e) {
            throw new Invalid(what, "'" + text + "' is too large (at most " + Long.MAX_VALUE + " bytes)");
        }
    }

    /** {@link #parse}, with {@code fallback} for a missing or blank text. */
    public static long parse(String text, String what, long fallback) {
        return text == null || text.isBlank() ? fallback : parse(text, what);
    }

    /** Exact and short: {@code 65536 -> 64KiB}, {@code 1536 -> 1536B}, {@code -4096 -> -4KiB} (strides have signs). */
    public static String format(long bytes) {
        if (bytes == Long.MIN_VALUE) return bytes + "B";
        long a = Math.abs(bytes);
        int unit = 0;
        while (unit < UNITS.length - 1 && a != 0 && (a & 1023) == 0) {
            a >>= 10;
            unit++;
        }
        return (bytes < 0 ? "-" : "") + a + UNITS[unit];
    }

    /**
     * The benchmarks' short form, as IOR's options write sizes: whole MiB as {@code m} ({@code 4m}), else whole KiB
     * as {@code k} ({@code 48k}), else bytes. Never {@code g}: workload names and tables compared across result
     * files keep the form they were first written in ({@code 65536m}).
     */
    public static String formatIorStyle(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) return (bytes >> 20) + "m";
        if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) return (bytes >> 10) + "k";
        return Long.toString(bytes);
    }

    /** A text that is not a size; the message is "WHAT: REASON". */
    public static final class Invalid extends IllegalArgumentException {
        private final String reason;

        Invalid(String what, String reason) {
            super(what + ": " + reason);
            this.reason = reason;
        }

        /** The message without the name of the option, hint or setting, for callers that add it themselves. */
        public String reason() {
            return reason;
        }
    }
}
