package io.pdla.simpfs.timing;

import io.pdla.simpfs.layout.Layout;

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

    /** A fresh stream of rank {@code rank}'s requests; called once per rank per replay. */
    RequestStream stream(int rank);
}
