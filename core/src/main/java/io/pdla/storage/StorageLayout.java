package io.pdla.storage;

import java.util.Map;

/**
 * How a file's bytes are spread over storage servers, in the driver's own vocabulary:
 * {@code kind} names the distribution (for example {@code 1-DH}, {@code 1-DV}, {@code 2-D}, {@code hdfs})
 * and {@code parameters} carries its settings (stripe size, server class, group size, block size,
 * storage policy...). Drivers without striping report {@link #NONE}.
 */
public record StorageLayout(String kind, Map<String, String> parameters) {
    public static final StorageLayout NONE = new StorageLayout("none", Map.of());

    public StorageLayout {
        if (kind == null || kind.isBlank()) throw new IllegalArgumentException("layout kind must be named");
        parameters = Map.copyOf(parameters);
    }

    public String parameter(String key, String fallback) {
        return parameters.getOrDefault(key, fallback);
    }
}
