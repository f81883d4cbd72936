package io.pdla.storage.sieve;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * ROMIO's data-sieving hints for independent non-contiguous access, validated:
 * {@code romio_ds_read} and {@code romio_ds_write} ({@code enable|disable|automatic}, default
 * {@code automatic}), {@code ind_rd_buffer_size} (default 4194304) and {@code ind_wr_buffer_size}
 * (default 524288), the largest window one sieved read or read-modify-write covers. Sizes are bytes (ROMIO
 * takes plain numbers; {@code k}/{@code m}/{@code g} binary suffixes are accepted too).
 */
public record SievingSettings(Mode read, Mode write, int readBufferSize, int writeBufferSize) {
    public static final String READ = "romio_ds_read";
    public static final String WRITE = "romio_ds_write";
    public static final String READ_BUFFER = "ind_rd_buffer_size";
    public static final String WRITE_BUFFER = "ind_wr_buffer_size";
    public static final int DEFAULT_READ_BUFFER = 4 * 1024 * 1024;
    public static final int DEFAULT_WRITE_BUFFER = 512 * 1024;
    public static final SievingSettings DEFAULT = new SievingSettings(Mode.AUTOMATIC, Mode.AUTOMATIC, DEFAULT_READ_BUFFER, DEFAULT_WRITE_BUFFER);

    public enum Mode {
        ENABLE, DISABLE, AUTOMATIC;

        public String hintValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public SievingSettings {
        if (read == null || write == null) throw new IllegalArgumentException("sieving modes must be given");
        if (readBufferSize < 1) throw new IllegalArgumentException(READ_BUFFER + "=" + readBufferSize + " must be at least 1 byte");
        if (writeBufferSize < 1) throw new IllegalArgumentException(WRITE_BUFFER + "=" + writeBufferSize + " must be at least 1 byte");
    }

    /** Reads the four hints; absent ones take ROMIO's defaults, others ({@code cb_*}, drivers' keys) are ignored. */
    public static SievingSettings fromHints(Map<String, String> hints) {
        return new SievingSettings(mode(hints, READ), mode(hints, WRITE),
                size(hints, READ_BUFFER, DEFAULT_READ_BUFFER), size(hints, WRITE_BUFFER, DEFAULT_WRITE_BUFFER));
    }

    private static Mode mode(Map<String, String> hints, String key) {
        String v = hints.get(key);
        if (v == null) return Mode.AUTOMATIC;
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "enable" -> Mode.ENABLE;
            case "disable" -> Mode.DISABLE;
            case "automatic" -> Mode.AUTOMATIC;
            default -> throw new IllegalArgumentException("hint " + key + "='" + v + "' is not one of enable, disable, automatic");
        };
    }

    private static int size(Map<String, String> hints, String key, int fallback) {
        String v = hints.get(key);
        if (v == null) return fallback;
        String t = v.trim().toLowerCase(Locale.ROOT);
        long mult = 1;
        if (!t.isEmpty()) {
            mult = switch (t.charAt(t.length() - 1)) {
                case 'k' -> 1L << 10;
                case 'm' -> 1L << 20;
                case 'g' -> 1L << 30;
                default -> 1;
            };
            if (mult != 1) t = t.substring(0, t.length() - 1);
        }
        try {
            long n = Math.multiplyExact(Long.parseLong(t), mult);
            if (n >= 1 && n <= Integer.MAX_VALUE - 8) return (int) n;
        } catch (NumberFormatException | ArithmeticException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("hint " + key + "='" + v + "' is not a buffer size between 1 byte and 2 GiB");
    }

    /** The settings in effect as hints, for {@code MPI_File_get_info}. */
    public Map<String, String> effectiveHints() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(READ, read.hintValue());
        m.put(WRITE, write.hintValue());
        m.put(READ_BUFFER, Integer.toString(readBufferSize));
        m.put(WRITE_BUFFER, Integer.toString(writeBufferSize));
        return m;
    }
}
