package io.pdla.delegate.allocation;

import io.pdla.delegate.allocation.DelegateAllocation.Decision;
import io.pdla.delegate.allocation.DelegateAllocation.Kind;
import io.pdla.delegate.allocation.JobHistory.IoMode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One test per DFRA rule, on synthetic histories drawn around the published thresholds. */
class DelegateAllocationTest {
    private static final DfraSettings S = DfraSettings.PUBLISHED;
    private static final long GB = 1L << 30;
    private final DelegateAllocation rules = new DelegateAllocation(S);
    private final long seed = ThreadLocalRandom.current().nextLong();
    private final java.util.Random rnd = new java.util.Random(seed);

    private JobHistory job(long bytes, int ioProcs, IoMode mode, double metadata) {
        return new JobHistory("app", 1024, bytes, 1000, ioProcs, mode, metadata);
    }

    @Test
    void aNewApplicationKeepsTheDefaultPath() {
        Decision d = rules.decide(Optional.empty(), List.of(job(100 * GB, 512, IoMode.N_ONE, 0)), 100);
        assertEquals(Kind.DEFAULT_PATH, d.kind(), d.toString());
        assertEquals(0, d.delegates());
    }

    @Test
    void scalingGrantsCeilOfIoProcessesOverF() {
        int nA = 32 + rnd.nextInt(2000);
        long bytes = 20 * GB + 1 + rnd.nextInt(1 << 30);
        Decision d = rules.decide(Optional.of(job(bytes, nA, IoMode.N_N, 3)), List.of(), Integer.MAX_VALUE);
        assertEquals(Kind.SCALED, d.kind(), "seed " + seed + ": " + d);
        assertEquals((nA + 31) / 32, d.delegates(), "seed " + seed + ": " + d);
    }

    @Test
    void scalingIsCappedByIdleDelegates() {
        int idle = 1 + rnd.nextInt(3);
        Decision d = rules.decide(Optional.of(job(64 * GB, 1024, IoMode.N_N, 0)), List.of(), idle);
        assertEquals(Kind.SCALED, d.kind(), d.toString());
        assertEquals(Math.min(32, idle), d.delegates(), "seed " + seed);
    }

    @Test
    void volumeAtOrBelowVminDoesNotScale() {
        Decision d = rules.decide(Optional.of(job(20 * GB - rnd.nextInt(1000), 1024, IoMode.N_N, 0)), List.of(), 100);
        assertEquals(Kind.DEFAULT_PATH, d.kind(), d.toString());
        assertTrue(d.reason().contains("V_min"), d.reason());
    }

    @Test
    void fewerThanNminIoProcessesDoNotScale() {
        Decision d = rules.decide(Optional.of(job(100 * GB, 1 + rnd.nextInt(31), IoMode.N_N, 0)), List.of(), 100);
        assertEquals(Kind.DEFAULT_PATH, d.kind(), d.toString());
        assertTrue(d.reason().contains("N_min"), d.reason());
    }

    @Test
    void aMetadataBoundJobDoesNotScale() {
        Decision d = rules.decide(Optional.of(job(100 * GB, 1024, IoMode.N_N, 32 + rnd.nextInt(100))), List.of(), 100);
        assertEquals(Kind.DEFAULT_PATH, d.kind(), d.toString());
        assertTrue(d.reason().contains("metadata-bound"), d.reason());
    }

    @Test
    void anNToOneNeighbourGetsTheJobDedicatedDelegates() {
        JobHistory quiet = job(GB, 4, IoMode.N_N, 0);
        JobHistory neighbour = new JobHistory("awp", 256, GB, 10, 256, IoMode.N_ONE, 0);
        Decision d = rules.decide(Optional.of(quiet), List.of(neighbour), 100);
        assertEquals(Kind.DEDICATED, d.kind(), d.toString());
        assertEquals(2, d.delegates(), "1024 processes at 512 per default delegate");
        assertTrue(d.reason().contains("N-1"), d.reason());
    }

    @Test
    void aMetadataHeavyNeighbourGetsTheJobDedicatedDelegates() {
        JobHistory neighbour = new JobHistory("dndc", 64, GB, 10, 64, IoMode.N_N, 40 + rnd.nextInt(100));
        Decision d = rules.decide(Optional.of(job(GB, 4, IoMode.N_N, 0)), List.of(neighbour), 100);
        assertEquals(Kind.DEDICATED, d.kind(), d.toString());
        assertTrue(d.reason().contains("metadata-heavy"), d.reason());
    }

    @Test
    void aHighBandwidthOrIopsNeighbourGetsTheJobDedicatedDelegates() {
        JobHistory bandwidth = new JobHistory("xcfd", 64, 21 * GB, 10, 8, IoMode.N_N, 0);
        JobHistory iops = new JobHistory("apt", 64, GB, 2_000_000, 8, IoMode.N_N, 0);
        for (JobHistory n : List.of(bandwidth, iops)) {
            Decision d = rules.decide(Optional.of(job(GB, 4, IoMode.N_N, 0)), List.of(n), 100);
            assertEquals(Kind.DEDICATED, d.kind(), d.toString());
            assertTrue(d.reason().contains("high-bandwidth or high-IOPS"), d.reason());
        }
    }

    @Test
    void quietNeighboursLeaveTheDefaultPath() {
        JobHistory neighbour = new JobHistory("quiet", 64, GB, 10, 8, IoMode.N_N, 1);
        Decision d = rules.decide(Optional.of(job(GB, 4, IoMode.N_N, 0)), List.of(neighbour), 100);
        assertEquals(Kind.DEFAULT_PATH, d.kind(), d.toString());
    }
}
