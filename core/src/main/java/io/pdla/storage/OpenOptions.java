package io.pdla.storage;

import java.util.Map;

/**
 * How to open a file. {@code hints} are the MPI_Info hints of the open; each driver reads only its own
 * prefixed keys (for example {@code posix_direct_io}) and ignores the rest.
 */
public record OpenOptions(boolean read, boolean write, boolean create, boolean exclusive, Map<String, String> hints) {
    /**
     * The one hint every driver may read: {@code true} asks a store that can ({@link Capability#DIRECT_IO}) to move
     * aligned requests around the host's page cache, and is ignored by the others, and where the file system refuses
     * it. For bytes nobody will read back soon through this host's cache (a replica being built: its copy through the
     * cache cost a core-second per 512 MiB beside the job it was built for).
     */
    public static final String HINT_BYPASS_CACHE = "pdla_bypass_cache";

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

    /** These options with {@link #HINT_BYPASS_CACHE} set. */
    public OpenOptions bypassingCache() {
        Map<String, String> h = new java.util.HashMap<>(hints);
        h.put(HINT_BYPASS_CACHE, "true");
        return withHints(h);
    }

    /** Whether {@link #HINT_BYPASS_CACHE} asks for it. */
    public boolean bypassCacheWished() {
        return "true".equalsIgnoreCase(hints.getOrDefault(HINT_BYPASS_CACHE, "false").trim());
    }

    public String hint(String key, String fallback) {
        return hints.getOrDefault(key, fallback);
    }
}
