package io.pdla.cli;

import io.pdla.access.IoOp;
import io.pdla.access.TraceRecord;
import io.pdla.patterns.TraceSource;
import java.util.Iterator;

/**
 * How a file's reads and writes were ordered in the log, for a file that had both: {@code pdla what-if} replays them
 * as two phases, so it says what that leaves out. {@code switches}: over all ranks, how often a rank's next request
 * (in DXT's start-time order) was of the other kind; {@code readsAfterFirstWrite}: reads that started after the file's
 * first write started (a write-then-read run such as IOR's has them all).
 */
record ReadWriteOrder(long switches, long reads, long readsAfterFirstWrite) {
    static ReadWriteOrder of(TraceSource source) {
        long firstWrite = Long.MAX_VALUE;
        for (int rank : source.ranks()) {
            for (Iterator<TraceRecord> it = source.records(rank); it.hasNext(); ) {
                TraceRecord t = it.next();
                if (t.op() == IoOp.WRITE) firstWrite = Math.min(firstWrite, t.startNanos());
            }
        }
        long switches = 0, reads = 0, after = 0;
        for (int rank : source.ranks()) {
            IoOp previous = null;
            for (Iterator<TraceRecord> it = source.records(rank); it.hasNext(); ) {
                TraceRecord t = it.next();
                if (previous != null && t.op() != previous) switches++;
                previous = t.op();
                if (t.op() == IoOp.READ) {
                    reads++;
                    if (t.startNanos() > firstWrite) after++;
                }
            }
        }
        return new ReadWriteOrder(switches, reads, after);
    }

    /** What the output says about it. */
    String describe() {
        return "reads and writes are predicted as two phases (all reads, then all writes, each rank's requests back to back, "
                + "as bench matrix does); a scheme's total is its read time plus its write time. In the log the ranks switched "
                + "between reading and writing " + switches + " time" + (switches == 1 ? "" : "s") + " and " + readsAfterFirstWrite
                + " of the " + reads + " reads came after the file's first write (DXT's time order): that order is not replayed";
    }
}
