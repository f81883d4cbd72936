package io.pdla.mpiio.collective;

/** Byte counts in hints: plain bytes as ROMIO takes them, or with a binary suffix (k, m, g). */
final class HintSizes {
    private HintSizes() {
    }

    static long parse(String key, String value) {
        String v = value.trim().toLowerCase(java.util.Locale.ROOT);
        long mult = 1;
        if (v.endsWith("kib") || v.endsWith("mib") || v.endsWith("gib")) v = v.substring(0, v.length() - 2);
        if (v.endsWith("k")) mult = 1L << 10;
        else if (v.endsWith("m")) mult = 1L << 20;
        else if (v.endsWith("g")) mult = 1L << 30;
        if (mult > 1) v = v.substring(0, v.length() - 1);
        try {
            return Math.multiplyExact(Long.parseLong(v), mult);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("hint " + key + "=" + value + ": expected a byte count such as 4194304 or 4m");
        }
    }
}
