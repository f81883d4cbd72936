package io.pdla.delegate.partition;

import io.pdla.access.ExtentList;

/** One partitioning method's answer for one request; offsets and aggregators are checked by FileDomains. */
interface DomainMap {
    int owner(long offset);

    long runEnd(long offset);

    /** runEnd when the caller already knows owner(offset): the exchange plan asks both for every piece. */
    default long runEnd(long offset, int owner) {
        return runEnd(offset);
    }

    /** A cheap lower bound of runEnd(offset): the plan needs the exact end only when a piece reaches past it. */
    default long runEndAtLeast(long offset, int owner) {
        return runEnd(offset, owner);
    }

    ExtentList domain(int aggregator);
}
