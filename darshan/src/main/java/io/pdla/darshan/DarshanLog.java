package io.pdla.darshan;

import java.util.List;
import java.util.Map;

/** A whole log as read: header, job, names by record id, and the module regions in module-id order. */
public record DarshanLog(DarshanHeader header, DarshanJob job, Map<Long, String> names, List<ModuleData> modules,
                         DarshanFormatException namesError) {
    public ModuleData module(ModuleId id) {
        for (ModuleData m : modules) if (m.module() == id) return m;
        return null;
    }

    public String name(long id) { return names.get(id); }

    /** Total bytes of decompressed record data (what parse speed is measured on). */
    public long uncompressedRecordBytes() {
        return modules.stream().mapToLong(ModuleData::uncompressedBytes).sum();
    }

    /** The first error met in any region, or null when the log read completely. */
    public DarshanFormatException firstError() {
        if (namesError != null) return namesError;
        for (ModuleData m : modules) if (m.error() != null) return m.error();
        return null;
    }
}
