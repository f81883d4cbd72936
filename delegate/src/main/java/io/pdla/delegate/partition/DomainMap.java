package io.pdla.delegate.partition;

import io.pdla.access.ExtentList;

/** One partitioning method's answer for one request; offsets and aggregators are checked by FileDomains. */
interface DomainMap {
    int owner(long offset);

    long runEnd(long offset);

    ExtentList domain(int aggregator);
}
