package io.pdla.tracer.runtime;

import io.pdla.tracer.counters.FileCounters;

/** What the tracer keeps in a {@link io.pdla.intercept.FileContext}: the file's id and its counters. */
record TracedFile(RankTracer tracer, int fileId, String path, FileCounters counters) {
}
