package io.pdla.hints;

import java.util.Locale;
import java.util.Map;

/**
 * The one reading of an on/off hint (MPI info value, pdla or ROMIO hint, or the environment variable standing in for
 * one), shared by every module so that a value means the same wherever it is given: {@code true}/{@code false}, or
 * ROMIO's {@code enable}/{@code disable}, trimmed, in any case. Anything else is an error naming the hint and the value,
 * never a silent {@code false}.
 */
public final class HintFlag {
    private HintFlag() {
    }

    /** {@code value} as a flag, or null when it is none of the spellings (not an error: some hints also take a path). */
    public static Boolean tryParse(String value) {
        if (value == null) return null;
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true", "enable" -> Boolean.TRUE;
            case "false", "disable" -> Boolean.FALSE;
            default -> null;
        };
    }

    /**
     * {@code value} as a flag; {@code what} names where it came from in the error ("hint posix_direct_io",
     * "environment variable PDLA_POSIX_NATIVE_IO").
     */
    public static boolean parse(String what, String value) {
        Boolean b = tryParse(value);
        if (b == null) throw new IllegalArgumentException(what + "='" + value + "': expected true or false (or enable/disable)");
        return b;
    }

    /** The hint {@code name} of {@code hints} as a flag, {@code absent} when it is not given. */
    public static boolean of(Map<String, String> hints, String name, boolean absent) {
        String v = hints.get(name);
        return v == null ? absent : parse("hint " + name, v);
    }
}
