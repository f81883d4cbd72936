package io.pdla.darshan;

import java.util.List;

/**
 * What one module region held. {@code records} is a list of {@link CounterRecord}, {@link LustreRecord},
 * {@link HeatmapRecord} or {@link DxtRecord}; {@code error} is set when the region stopped short (the records
 * are those read before), {@code note} when it was skipped (unknown module, no decoder, unsupported version).
 */
public record ModuleData(ModuleId module, int index, int version, long compressedBytes, long uncompressedBytes,
                         boolean partial, List<Object> records, DarshanFormatException error, String note) {
    @SuppressWarnings("unchecked")
    public <T> List<T> recordsOf(Class<T> type) {
        return (List<T>) (List<?>) records.stream().filter(type::isInstance).toList();
    }
}
