package io.pdla.patterns.db;

import io.pdla.pattern.PatternKey;
import io.pdla.patterns.RuntimeInfo;

import java.util.List;

/** The value stored under one {@link PatternKey}: the patterns of that rank (or "all") on that file. */
public record PatternEntry(PatternKey key, List<StoredPattern> patterns, RuntimeInfo runtime) {
    public PatternEntry {
        patterns = List.copyOf(patterns);
        if (patterns.isEmpty()) throw new IllegalArgumentException("entry " + key + " has no patterns");
    }
}
