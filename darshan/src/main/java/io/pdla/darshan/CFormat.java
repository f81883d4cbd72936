package io.pdla.darshan;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** printf conversions as glibc does them: %f rounds the exact binary value half-to-even and keeps the sign of -0. */
final class CFormat {
    private CFormat() {}

    static String f(double d, int decimals) {
        if (Double.isNaN(d)) return (Double.doubleToRawLongBits(d) < 0 ? "-" : "") + "nan";
        if (Double.isInfinite(d)) return d < 0 ? "-inf" : "inf";
        if (d == (long) d && Math.abs(d) < 1e15 && !(d == 0 && 1 / d < 0)) {
            StringBuilder s = new StringBuilder(Long.toString((long) d));
            if (decimals > 0) s.append('.').append("0".repeat(decimals));
            return s.toString();
        }
        String s = new BigDecimal(d).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
        boolean negative = d < 0 || (d == 0 && 1 / d < 0);
        if (negative && !s.startsWith("-")) s = "-" + s;
        return s;
    }

    static String f6(double d) { return f(d, 6); }

    static String u64(long v) { return Long.toUnsignedString(v); }
}
