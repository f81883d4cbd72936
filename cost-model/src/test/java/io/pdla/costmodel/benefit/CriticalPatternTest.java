package io.pdla.costmodel.benefit;

import io.pdla.costmodel.AccessPattern;
import io.pdla.storage.Layout.Distribution;
import io.pdla.costmodel.LayoutChoice;
import io.pdla.costmodel.ModelParameters;
import io.pdla.costmodel.Op;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CriticalPatternTest {

    private static final ModelParameters P = ModelParameters.defaults();
    private static final BenefitCalculator CALC = new BenefitCalculator(P, 8, 4);

    @Test
    void aPatternIsCriticalOnlyWhenItsBenefitExceedsTheThreshold() {
        AccessPattern small = AccessPattern.of(32, 4, 16384, 100, Op.READ);
        double b = CALC.evaluate(small).benefit();
        assertTrue(b > 0);
        assertTrue(new CriticalPatternRule(CALC).classify("small", small).isPresent());
        assertTrue(new CriticalPatternRule(CALC, b * 0.99).classify("small", small).isPresent());
        assertFalse(new CriticalPatternRule(CALC, b).classify("small", small).isPresent());
    }

    @Test
    void aPatternWithNegativeBenefitIsNotCritical() {
        BenefitCalculator fewSsds = new BenefitCalculator(P, 16, 1);
        AccessPattern large = AccessPattern.of(64, 8, 4 << 20, 10, Op.READ);
        assertTrue(fewSsds.evaluate(large).benefit() < 0);
        assertEquals(Optional.empty(), new CriticalPatternRule(fewSsds).classify("large", large));
    }

    @Test
    void theEntryCarriesBenefitSpaceLayoutAndSServerBytes() {
        AccessPattern small = AccessPattern.of(32, 4, 16384, 100, Op.READ);
        CriticalPatternEntry e = new CriticalPatternRule(CALC).classify("app:32:file:small", small).orElseThrow();
        PatternBenefit b = CALC.evaluate(small);
        assertEquals("app:32:file:small", e.patternKey());
        assertEquals(b.benefit(), e.benefitSeconds());
        assertEquals(ReplicaSpace.SSERVERS, e.space());
        assertEquals(b.onSServers(), e.layout());
        assertEquals(0, e.hServerStripe());
        // whatever the layout, 4 SServers hold all 32*16 KiB*100 bytes, the fullest one at least a quarter
        long total = small.totalBytes();
        assertTrue(e.bytesPerSServer() >= total / 4 && e.bytesPerSServer() <= total, () -> e.toString());
    }

    @Test
    void aHybridEntryRecordsTheStripePair() {
        AccessPattern huge = AccessPattern.of(64, 8, 64L << 20, 2, Op.READ);
        CriticalPatternEntry e = new CriticalPatternRule(CALC).classify("huge", huge).orElseThrow();
        assertEquals(ReplicaSpace.HSERVERS_PLUS_SSERVERS, e.space());
        assertEquals(Distribution.ONE_DH, e.layout().layout());
        assertEquals(64L << 20, 8 * e.hServerStripe() + 4 * e.sServerStripe(), 12);
        assertEquals(64L * e.sServerStripe() * 2, e.bytesPerSServer(), 64 * 2);
    }

    @Test
    void aLocalPatternIsChargedItsOwnBytesNotEveryRanks() {
        // one rank's 512 MiB of a 64-rank job, in 1 MiB requests: the timing model sees 64 ranks running alike,
        // the replica holds this rank's bytes only
        AccessPattern local = AccessPattern.of(64, 8, 1 << 20, 512, Op.READ);
        long ownBytes = 512L << 20;
        for (LayoutChoice layout : List.of(new LayoutChoice(Distribution.ONE_DH, 1, 1), new LayoutChoice(Distribution.ONE_DV, 4, 1),
                new LayoutChoice(Distribution.TWO_D, 2, 1))) {
            long charged = SServerSpace.bytesPerSServer(local, 1, ReplicaSpace.SSERVERS, layout, 4, 0);
            long asGlobal = SServerSpace.bytesPerSServer(local, ReplicaSpace.SSERVERS, layout, 4, 0);
            assertTrue(charged >= ownBytes / 4 && charged <= ownBytes, layout + ": " + charged);
            assertTrue(asGlobal >= 16 * charged, layout + ": the global charge covers 64 ranks, " + asGlobal + " vs " + charged);
        }
        Optional<CriticalPatternEntry> e = new CriticalPatternRule(CALC).classify("local", local, 1);
        e.ifPresent(x -> assertTrue(x.bytesPerSServer() <= ownBytes, x.toString()));
        assertThrows(IllegalArgumentException.class, () -> SServerSpace.bytesPerSServer(local, 65, ReplicaSpace.SSERVERS,
                new LayoutChoice(Distribution.ONE_DV, 4, 1), 4, 0));
    }

    @Test
    void sServerSpaceFollowsTheLayout() {
        AccessPattern pattern = AccessPattern.of(10, 1, 1000, 3, Op.WRITE);
        assertEquals(10 * 1000 * 3 / 4, SServerSpace.bytesPerSServer(pattern, ReplicaSpace.SSERVERS,
                new LayoutChoice(Distribution.ONE_DH, 1, 1), 4, 0)); // 10*1000/4 = 2500 per round
        assertEquals(3 * 1000 * 3, SServerSpace.bytesPerSServer(pattern, ReplicaSpace.SSERVERS,
                new LayoutChoice(Distribution.ONE_DV, 4, 1), 4, 0)); // ceil(10/4) = 3 processes on the fullest server
        assertEquals(5 * 1000 / 2 * 3, SServerSpace.bytesPerSServer(pattern, ReplicaSpace.SSERVERS,
                new LayoutChoice(Distribution.TWO_D, 2, 1), 4, 0)); // 5 processes per group of 2 servers
        assertEquals(10 * 300 * 3, SServerSpace.bytesPerSServer(pattern, ReplicaSpace.HSERVERS_PLUS_SSERVERS,
                new LayoutChoice(Distribution.ONE_DH, 1, 1), 4, 300));
    }

    private static CriticalPatternEntry entry(String key, double benefit, long bytes) {
        return new CriticalPatternEntry(key, benefit, ReplicaSpace.SSERVERS,
                new LayoutChoice(Distribution.ONE_DV, 4, 0.1), bytes, 0, 0);
    }

    @Test
    void plannerPlacesByDescendingBenefitWhileSpaceLasts() {
        List<CriticalPatternEntry> cpt = new ArrayList<>(List.of(
                entry("a", 5.0, 600), entry("b", 9.0, 300), entry("c", 7.0, 500), entry("d", 1.0, 100)));
        Collections.shuffle(cpt, new java.util.Random(42));
        ReplicaPlan plan = new SsdReplicaPlanner().plan(cpt, 1000);
        // b (300) then c (500) fit; a (600) no longer fits in the 200 left; d (100) still does
        assertEquals(List.of("b", "c", "d"), plan.placed().stream().map(CriticalPatternEntry::patternKey).toList());
        assertEquals(List.of("a"), plan.skipped().stream().map(CriticalPatternEntry::patternKey).toList());
        assertEquals(100, plan.remainingBytesPerSServer());
    }

    @Test
    void plannerWithNoSpacePlacesNothingAndTiesAreOrderedByKey() {
        List<CriticalPatternEntry> cpt = List.of(entry("z", 2.0, 10), entry("y", 2.0, 10));
        assertEquals(List.of(), new SsdReplicaPlanner().plan(cpt, 5).placed());
        assertEquals(List.of("y", "z"), new SsdReplicaPlanner().plan(cpt, 100).placed().stream()
                .map(CriticalPatternEntry::patternKey).toList());
    }

    @Test
    void anEntryOnHServersIsNotACriticalPatternEntry() {
        assertThrows(IllegalArgumentException.class, () -> new CriticalPatternEntry("k", 1.0,
                ReplicaSpace.HSERVERS, new LayoutChoice(Distribution.ONE_DH, 1, 1), 0, 0, 0));
    }
}
