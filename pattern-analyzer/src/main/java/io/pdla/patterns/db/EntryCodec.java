package io.pdla.patterns.db;

import io.pdla.pattern.PatternKey;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.pdla.patterns.RuntimeInfo;

import java.io.IOException;
import java.util.List;

/**
 * Values are UTF-8 JSON (Jackson) of {@link Value}: readable with any JSON tool and tolerant of added fields.
 * The key is not repeated in the value. The schema version lives in the database's meta record, not per value.
 */
final class EntryCodec {
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    record Value(List<StoredPattern> patterns, RuntimeInfo runtime) {
    }

    private static final ObjectReader READER = JSON.readerFor(Value.class);
    private static final ObjectWriter WRITER = JSON.writerFor(Value.class);

    static byte[] encode(PatternEntry e) {
        try {
            return WRITER.writeValueAsBytes(new Value(e.patterns(), e.runtime()));
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException("cannot encode pattern entry " + e.key(), ex);
        }
    }

    static PatternEntry decode(PatternKey key, byte[] bytes) {
        try {
            Value v = READER.readValue(bytes);
            return new PatternEntry(key, v.patterns(), v.runtime());
        } catch (IOException | RuntimeException ex) {
            // RuntimeException: a value Jackson could map that PatternEntry refuses (no patterns, null list)
            throw new PatternDatabaseException("corrupt pattern entry " + key + ": " + ex.getMessage(), ex);
        }
    }

    static ObjectMapper json() {
        return JSON;
    }
}
