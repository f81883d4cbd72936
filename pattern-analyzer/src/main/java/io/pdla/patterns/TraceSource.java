package io.pdla.patterns;

import io.pdla.access.TraceRecord;

import java.util.Iterator;
import java.util.List;
import java.util.SortedSet;

/**
 * The analyzer's view of a traced run: one stream of records per rank, in issue order. The tracer module's
 * reader is adapted to this (the adapter lives where both are visible, in the cli).
 *
 * <p>An implementation reports damage instead of hiding it: a rank whose trace is cut short throws
 * {@link TruncatedTraceException} from its iterator after the last good record; a rank whose trace belongs to
 * another job answers a different {@link #jobOf(int)}.
 */
public interface TraceSource {
    /** The job as recorded (by rank 0's trace, or the job file). */
    TracedJob job();

    /** Ranks that have a trace; fewer than {@code job().app().processes()} when some are missing. */
    SortedSet<Integer> ranks();

    /** The job identity the given rank's trace was written by. */
    default TracedJob jobOf(int rank) {
        return job();
    }

    /** The rank's records in issue order, streamed. */
    Iterator<TraceRecord> records(int rank);

    /** Problems the source noticed while opening (unreadable files, ...). */
    default List<String> warnings() {
        return List.of();
    }
}
