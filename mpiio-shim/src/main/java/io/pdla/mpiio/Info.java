package io.pdla.mpiio;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** MPI_Info: string hints. Keys and values are trimmed; keys are case-sensitive as in MPI. */
public final class Info {
    private final Map<String, String> entries = new LinkedHashMap<>();

    public Info() {
    }

    public Info(Map<String, String> initial) {
        for (Map.Entry<String, String> e : initial.entrySet()) set(e.getKey(), e.getValue()); // no lambda: made in every open
    }

    public Info set(String key, String value) {
        if (key == null || key.isBlank()) throw new IllegalArgumentException("Info key must not be empty");
        if (value == null) throw new IllegalArgumentException("Info value for '" + key + "' must not be null");
        entries.put(key.trim(), value.trim());
        return this;
    }

    public String get(String key) {
        return entries.get(key);
    }

    public void delete(String key) {
        entries.remove(key);
    }

    public int size() {
        return entries.size();
    }

    public Info dup() {
        return new Info(entries);
    }

    public Map<String, String> asMap() {
        return Collections.unmodifiableMap(entries);
    }

    @Override
    public String toString() {
        return "Info" + entries;
    }
}
