package io.pdla.mpiio;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A handle's hints, in the two forms MPI needs: as the application gave them (what a later MPI_File_set_info
 * merges with, so that effective values are never read as choices) and as in effect (what getInfo reports).
 *
 * <p>The effective map is the one the file's {@link io.pdla.intercept.FileContext} holds, so interceptors see
 * hints added after the open; it is therefore wrapped, not copied.
 */
final class HandleHints {
    private final Map<String, String> effective;
    private final Map<String, String> given;

    HandleHints(Map<String, String> given, Map<String, String> effective) {
        this.given = given;
        this.effective = effective;
    }

    /** MPI_File_get_info: a copy of the hints in effect. */
    Info info() {
        return new Info(effective);
    }

    /** The hints the application gave, with {@code more} on top: what a new setting is validated against. */
    Map<String, String> givenWith(Map<String, String> more) {
        Map<String, String> merged = new LinkedHashMap<>(given);
        merged.putAll(more);
        return merged;
    }

    /** New hints of the application, once valid, and the values the layers below settled on with them. */
    void add(Map<String, String> more, Map<String, String> settled) {
        given.putAll(more);
        effective.putAll(more);
        effective.putAll(settled);
    }
}
