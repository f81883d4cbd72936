package io.pdla.analytics;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;

/**
 * The logs already ingested into a tables directory ({@code manifest.json}): per absolute path its size, its
 * modification time (ms), the job key its rows carry and the batch they went into. A log whose path, size and
 * mtime are all in the manifest is skipped; a changed log is ingested again under a new job key (its old rows
 * stay: start a fresh tables directory to drop them).
 */
final class Manifest {
    record Entry(long size, long mtime, long jobKey, String batch) {}

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    final Map<String, Entry> logs;

    private Manifest(Map<String, Entry> logs) { this.logs = logs; }

    static Manifest load(Path tables) throws IOException {
        Path f = tables.resolve(Tables.MANIFEST);
        if (!Files.exists(f)) return new Manifest(new TreeMap<>());
        try {
            Map<String, Entry> m = JSON.readValue(f.toFile(),
                    JSON.getTypeFactory().constructMapType(TreeMap.class, String.class, Entry.class));
            return new Manifest(m);
        } catch (IOException e) {
            throw new IOException(f + " is not a readable manifest: " + e.getMessage(), e);
        }
    }

    boolean has(String path, long size, long mtime) {
        Entry e = logs.get(path);
        return e != null && e.size() == size && e.mtime() == mtime;
    }

    void save(Path tables) throws IOException {
        Path f = tables.resolve(Tables.MANIFEST), tmp = tables.resolve(Tables.MANIFEST + ".tmp");
        JSON.writeValue(tmp.toFile(), logs);
        Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
