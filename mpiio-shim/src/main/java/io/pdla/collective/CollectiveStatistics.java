package io.pdla.collective;

/** What this rank's collective calls on one file did: how many aggregated, in how many rounds, and the aggregator's storage calls. */
public final class CollectiveStatistics {
    long twoPhase;
    long independent;
    long unmet;
    long agreedInCall;
    long lastMeetingsSaved;
    long rounds;
    long storageCalls;
    long storageBytes;
    long vetoed;
    long readModifyWrites;
    int lastAggregators;
    long mappedWindows;
    long mappedWriteWindows;
    long readAheadWindows;
    long backgroundReads;
    long backgroundWindows;

    /**
     * Reads this rank, as an aggregator of small dense reads of an uncached file, made in the background, one stretch
     * ahead: counted (with {@link #aggregatorStorageCalls}) when the aggregator sees one has ended, so one still running
     * is not yet counted, and one that failed never is (it read nothing; the stretch is read again when needed).
     */
    public long backgroundReads() {
        return backgroundReads;
    }

    /** Background reads taken: a call reached the stretch one of them had read (the others were dropped by a change or the close). */
    public long backgroundWindows() {
        return backgroundWindows;
    }

    /** Read windows this rank, as an aggregator of small dense reads of an uncached file, served from what it read ahead. */
    public long readAheadWindows() {
        return readAheadWindows;
    }

    /** Write windows this rank, as an aggregator, filled straight from the ranks' pieces through the store's memory mapping. */
    public long mappedWriteWindows() {
        return mappedWriteWindows;
    }

    /** Read windows this rank, as an aggregator, served from the store's memory mapping instead of reading them. */
    public long mappedWindows() {
        return mappedWindows;
    }

    /** Aggregators of the last two-phase call (0 before any). */
    public int lastCallAggregators() {
        return lastAggregators;
    }

    /** Write windows with small holes that this rank, as an aggregator, wrote as one locked read-modify-write. */
    public long readModifyWrites() {
        return readModifyWrites;
    }

    /** Collective data calls that moved nothing because a rank's arguments failed validation. */
    public long vetoedCalls() {
        return vetoed;
    }

    /** Collective data calls that went through two-phase collective buffering. */
    public long twoPhaseCalls() {
        return twoPhase;
    }

    /**
     * Collective reads whose outcome the ranks agreed on in one of the call's own all-gathers, so the shim did not meet
     * again after it: the first (each rank read its own bytes first, as the last call was decided), or a two-phase
     * read's last (where the file ended).
     */
    public long agreedInCall() {
        return agreedInCall;
    }

    /**
     * Two-phase reads whose data exchange was their last meeting: one aggregator, one round, ranks in one JVM, the window
     * the store's mapping or the aggregator's read-ahead (not refilled before the next call), the outcome told in the
     * exchange; the all-gather after the copies was left out.
     */
    public long lastMeetingsSaved() {
        return lastMeetingsSaved;
    }

    /** Collective data calls where each rank did its own I/O (hint, or requests that do not interleave). */
    public long independentCalls() {
        return independent;
    }

    /**
     * Of {@link #independentCalls}, the reads that skipped their meetings: steady reads each rank serves itself, between
     * the checks that meet (see the shim's README, hint {@code pdla_lazy_coll_reads}).
     */
    public long unmetCalls() {
        return unmet;
    }

    public long rounds() {
        return rounds;
    }

    /** Storage requests this rank made as an aggregator. */
    public long aggregatorStorageCalls() {
        return storageCalls;
    }

    public long aggregatorStorageBytes() {
        return storageBytes;
    }

    @Override
    public String toString() {
        return "two-phase " + twoPhase + ", independent " + independent + " (unmet " + unmet + "), rounds " + rounds + ", aggregators in the last " + lastAggregators + ", aggregator storage calls "
                + storageCalls + " (" + storageBytes + " bytes), read-modify-writes " + readModifyWrites + ", windows read ahead " + readAheadWindows
                + " (" + backgroundWindows + " from " + backgroundReads + " background reads)";
    }
}
