package io.pdla.storage;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LayoutTest {
    @Test
    void theTextFormReadsBackToAnEqualLayout() {
        for (String text : List.of("1dh", "1dh,stripe=4k,space=ssd,sservers=4", "1dv,region=1m", "1dv,stripe=8k,region=7000,space=both",
                "2d:2,stripe=8k,region=1m,space=both,hservers=8,sservers=4", "hybrid,sh=16k,ss=112k,hservers=8,sservers=4",
                "hybrid,sh=0,ss=64k", "unstriped", "unstriped,stripe=512")) {
            Layout l = Layout.parse(text);
            assertEquals(l, Layout.parse(l.toString()), text + " -> " + l);
        }
    }

    @Test
    void randomLayoutsRoundTrip() {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        for (int i = 0; i < 500; i++) {
            Layout.ServerClass cls = Layout.ServerClass.values()[r.nextInt(3)];
            long stripe = 1 + r.nextInt(1 << 22);
            Layout l = switch (r.nextInt(5)) {
                case 0 -> Layout.oneDH(cls, stripe);
                case 1 -> Layout.oneDV(cls, r.nextInt(1 << 26)).withStripe(stripe);
                case 2 -> Layout.twoD(cls, 1 + r.nextInt(8), stripe, r.nextInt(1 << 26));
                case 3 -> Layout.hybrid(r.nextInt(1 << 20), 1 + r.nextInt(1 << 20));
                default -> Layout.unstriped(stripe);
            };
            l = l.withServers(r.nextInt(16), r.nextInt(8));
            assertEquals(l, Layout.parse(l.toString()), "seed " + seed + ": " + l);
        }
    }

    @Test
    void stripeSizeAndServerCountAreWhatTheCollectiveEngineNeeds() {
        Layout oneDH = Layout.parse("1dh,stripe=64k,space=hdd,hservers=8,sservers=4");
        assertEquals(64 * 1024, oneDH.stripeSize());
        assertEquals(8, oneDH.serverCount(), "an HDD-only file does not count the SSD servers");
        assertEquals(12, Layout.parse("1dh,stripe=64k,space=both,hservers=8,sservers=4").serverCount());
        assertEquals(4, Layout.parse("1dv,region=1m,space=ssd,hservers=8,sservers=4").serverCount());
        assertEquals(1 << 20, Layout.parse("1dv,region=1m,space=ssd").stripeSize(), "1-DV changes server every region");
        Layout hybrid = Layout.parse("hybrid,sh=16k,ss=112k,hservers=8,sservers=4");
        assertEquals(12, hybrid.serverCount());
        assertEquals((8L * 16 + 4 * 112) * 1024, hybrid.stripeSize() * hybrid.serverCount(), "one row over all servers");
        assertEquals(4, Layout.parse("hybrid,sh=0,ss=64k,hservers=8,sservers=4").serverCount(), "a zero strip puts nothing on HServers");
        Layout posix = Layout.unstriped(4096);
        assertEquals(1, posix.serverCount());
        assertEquals(4096, posix.stripeSize());
        assertEquals(1, Layout.parse("2d:4").serverCount(), "a plan without counts claims one server, the only certain thing");
    }

    @Test
    void errorsQuoteTheTextAndNameThePart() {
        assertRefused("3d", "'3d'", "1dh, 1dv, 2d, hybrid, unstriped");
        assertRefused("2d", "'2d'", "group size");
        assertRefused("1dh,stripe=12q", "stripe='12q'", "not a size");
        assertRefused("1dh,colour=red", "'colour'", "known:");
        assertRefused("1dh,stripe", "'stripe'", "key=value");
        assertRefused("2d:x", "'x'", "whole number");
        assertRefused("1dh,space=tape", "'tape'", "hdd, ssd, both");
        assertRefused("1dh,stripe=0", "stripe must be > 0", "1dh,stripe=0");
        assertRefused("hybrid,sh=0,ss=0", "not both 0", "hybrid");
        assertRefused("1dh,stripe=4k,stripe=8k", "given twice", "stripe");
        assertThrows(IllegalArgumentException.class, () -> Layout.parse(" "));
    }

    private static void assertRefused(String text, String... fragments) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Layout.parse(text));
        assertTrue(e.getMessage().contains("'" + text + "'"), "quotes the text: " + e.getMessage());
        for (String f : fragments) assertTrue(e.getMessage().contains(f), "'" + f + "' in: " + e.getMessage());
    }
}
