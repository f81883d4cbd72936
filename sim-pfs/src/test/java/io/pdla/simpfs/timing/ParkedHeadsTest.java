package io.pdla.simpfs.timing;

import io.pdla.simpfs.config.HddParams;
import io.pdla.simpfs.config.NetworkParams;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.simpfs.workload.IorWorkload;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.ServerClass;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A new engine's heads rest on file 0's first byte; parked elsewhere, reaching it costs a positioning. */
class ParkedHeadsTest {
    private static final SimPfsConfig ONE_DISK = SimPfsConfig.builder().hservers(1).sservers(0)
            .network(new NetworkParams(0, 1e6, 1)).extentLocks(false).build();
    // one rank reads file 0's first 4 KiB
    private static final IorWorkload FIRST_BYTES = new IorWorkload(1, 4096, 4096, 1, false, false, false, 1,
            Layout.oneDH(ServerClass.HDD, 64 << 10));

    @Test
    void file0IsUnderTheHeadsOfANewEngineAndAPositioningAwayWhenTheyAreParked() {
        HddParams hdd = ONE_DISK.hdd();
        SimResult fresh = new TimingEngine(ONE_DISK).run(FIRST_BYTES);
        assertEquals(0, fresh.totalSeeks(), "a new engine's head is on address 0, file 0's first byte");
        assertTrue(fresh.elapsedSeconds() < hdd.revolutionSeconds() / 2, "no positioning: " + fresh.elapsedSeconds());

        long middle = (long) (hdd.capacityBytes() / 2);
        TimingEngine parked = new TimingEngine(ONE_DISK);
        parked.parkHeads(middle);
        SimResult r = parked.run(FIRST_BYTES);
        assertEquals(1, r.totalSeeks());
        assertEquals(middle, r.servers().get(0).seekDistanceBytes(), "the head travelled from the middle to address 0");
        double positioning = hdd.seekSeconds(middle) + hdd.revolutionSeconds() / 2;
        assertTrue(r.elapsedSeconds() >= positioning, r.elapsedSeconds() + " s, positioning alone " + positioning + " s");
    }

    @Test
    void aNegativeAddressIsRefusedAndOnePastTheDiskIsItsLastByte() {
        TimingEngine e = new TimingEngine(ONE_DISK);
        var ex = assertThrows(IllegalArgumentException.class, () -> e.parkHeads(-1));
        assertTrue(ex.getMessage().contains("-1"), ex.getMessage());
        e.parkHeads(Long.MAX_VALUE);
        SimResult r = e.run(FIRST_BYTES);
        assertEquals((long) ONE_DISK.hdd().capacityBytes() - 1, r.servers().get(0).seekDistanceBytes());
    }
}
