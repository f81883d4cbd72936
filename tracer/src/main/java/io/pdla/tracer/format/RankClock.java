package io.pdla.tracer.format;

import java.util.Collection;

/**
 * Aligns ranks' time origins to the job start. Ranks of one JVM (MPJ multicore) share
 * {@code System.nanoTime()}, which is exact; ranks of different JVMs are aligned by wall clock, which is
 * as good as the hosts' clock synchronization.
 */
public record RankClock(long originEpochNanos, long originNanoTime, long clockDomain) {
    /** The job's start in epoch nanoseconds: the earliest rank origin. */
    public static long jobStartEpochNanos(Collection<RankClock> ranks) {
        return ranks.stream().mapToLong(RankClock::originEpochNanos).min().orElse(0);
    }

    /** Nanoseconds to add to this rank's times to make them relative to the job start. */
    public long shiftNanos(Collection<RankClock> ranks) {
        boolean oneJvm = ranks.stream().allMatch(r -> r.clockDomain == clockDomain);
        if (oneJvm) {
            long earliest = ranks.stream().mapToLong(RankClock::originNanoTime).min().orElse(originNanoTime);
            return originNanoTime - earliest;
        }
        return originEpochNanos - jobStartEpochNanos(ranks);
    }
}
