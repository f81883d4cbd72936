package io.pdla.bench.ior;

import java.util.List;

/** What was run: the header of the text output and of the JSON. */
public record RunInfo(String began, List<String> arguments, String api, List<String> backends,
                      List<String> backendDescriptions, int tasks, String path, boolean filePerProcess,
                      boolean collective, boolean reorder, boolean fsync, boolean verify,
                      long transferSize, long blockSize, int segments, long aggregateBytes, int iterations) {
}
