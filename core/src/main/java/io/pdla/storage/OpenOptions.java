package io.pdla.storage;

import java.util.Map;

/**
 * How to open a file. {@code hints} are the MPI_Info hints of the open; each driver reads only its own
 * prefixed keys (for example {@code posix_direct_io}) and ignores the rest.
 */
public record OpenOptions(boolean read, boolean write, boolean create, boolean exclusive, Map<String, String> hints) {
    public OpenOptions {
        if (!read && !write) throw new IllegalArgumentException("open must ask for read, write or both");
        if (exclusive && !create) throw new IllegalArgumentException("exclusive open requires create");
        hints = Map.copyOf(hints);
    }

    public static OpenOptions readOnly() {
        return new OpenOptions(true, false, false, false, Map.of());
    }

    public static OpenOptions readWrite() {
        return new OpenOptions(true, true, false, false, Map.of());
    }

    public static OpenOptions createReadWrite() {
        return new OpenOptions(true, true, true, false, Map.of());
    }

    public OpenOptions withHints(Map<String, String> newHints) {
        return new OpenOptions(read, write, create, exclusive, newHints);
    }

    public OpenOptions withoutCreate() {
        return new OpenOptions(read, write, false, false, hints);
    }

    public String hint(String key, String fallback) {
        return hints.getOrDefault(key, fallback);
    }
}
