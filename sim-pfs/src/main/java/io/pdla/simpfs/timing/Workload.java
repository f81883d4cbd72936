package io.pdla.simpfs.timing;

import io.pdla.storage.Layout;

import java.util.List;

/**
 * What the engine replays: a number of ranks, the files they touch (index = the file number in requests, each
 * with its layout) and one request stream per rank. Streams are generated lazily, so 512 ranks cost nothing
 * until replayed.
 */
public interface Workload {
    String description();

    int ranks();

    List<Layout> files();

    /**
     * Which server (or 2-D group) file {@code file} starts on, counted from the first of its class; see
     * {@link io.pdla.simpfs.layout.StripeMap#rotated}. By default file k starts on server k, so the files of
     * a file-per-process run spread over the servers.
     */
    default long rotation(int file) {
        return file;
    }

    /** A fresh stream of rank {@code rank}'s requests; called once per rank per replay. */
    RequestStream stream(int rank);
}
