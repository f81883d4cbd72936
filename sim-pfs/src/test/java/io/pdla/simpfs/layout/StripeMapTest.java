package io.pdla.simpfs.layout;

import io.pdla.simpfs.config.ConfigException;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.ServerClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StripeMapTest {
    private static final Layout DEFAULTS = Layout.oneDH(ServerClass.HDD, 64 << 10);

    @ParameterizedTest
    @ValueSource(strings = {"1dh,stripe=1000", "1dv,region=3000,space=both", "2d:2,stripe=700,region=5000",
            "2d:4,stripe=64k,region=100k,space=hdd", "hybrid,sh=300,ss=1100", "1dh,stripe=4k,space=ssd"})
    void everyByteHasOneHomeAndMapsBack(String spec) {
        StripeMap map = StripeMap.of(SimLayouts.parse(spec, DEFAULTS, "test"), 8, 4);
        long size = 200_000;
        Set<String> homes = new HashSet<>();
        long[] covered = {0};
        map.map(0, size, (server, local, length, fileOffset) -> {
            assertEquals(fileOffset, map.fileOffset(server, local), "start of piece on server " + server);
            assertEquals(fileOffset + length - 1, map.fileOffset(server, local + length - 1), "end of piece on server " + server);
            assertTrue(homes.add(server + ":" + local), "two file bytes share server " + server + " local " + local);
            covered[0] += length;
        });
        assertEquals(size, covered[0]);
        // Sizes derived from the objects give back the file size, for any size.
        for (long fileSize : new long[]{1, 999, 1000, 1001, 77_777, size}) {
            long end = 0;
            for (int server : map.servers()) end = Math.max(end, map.fileEnd(server, map.localSize(server, fileSize)));
            assertEquals(fileSize, end, "size " + fileSize + " of " + spec);
        }
    }

    @Test
    void distributionsPlaceDataWhereTheirDefinitionsSay() {
        List<Integer> servers = new ArrayList<>();
        StripeMap dv = StripeMap.of(Layout.oneDV(ServerClass.HDD, 1000), 8, 4);
        for (long region = 0; region < 10; region++) dv.map(region * 1000, 1000, (s, l, n, f) -> servers.add(s));
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 0, 1), servers, "1-DV: one server per region, round-robin");

        servers.clear();
        StripeMap twoD = StripeMap.of(Layout.twoD(ServerClass.HDD, 4, 100, 1000), 8, 4);
        twoD.map(1000, 1000, (s, l, n, f) -> servers.add(s));
        assertEquals(Set.of(4, 5, 6, 7), new HashSet<>(servers), "2-D: region 1 lives on the second group of four");

        servers.clear();
        StripeMap ssd = StripeMap.of(Layout.oneDH(ServerClass.SSD, 100), 8, 4);
        ssd.map(0, 400, (s, l, n, f) -> servers.add(s));
        assertEquals(List.of(8, 9, 10, 11), servers, "SSD servers follow the HDD servers in global numbering");

        List<Long> lengths = new ArrayList<>();
        StripeMap hybrid = StripeMap.of(Layout.hybrid(10, 50), 2, 1);
        hybrid.map(0, 70, (s, l, n, f) -> lengths.add(n));
        assertEquals(List.of(10L, 10L, 50L), lengths, "hybrid: sh on each HServer, ss on each SServer");
    }

    @Test
    void rotationMovesTheFirstServerButKeepsGroupsWhole() {
        List<Integer> servers = new ArrayList<>();
        StripeMap dv = StripeMap.of(Layout.oneDV(ServerClass.HDD, 1000), 8, 4).rotated(3);
        dv.map(0, 2000, (s, l, n, f) -> servers.add(s));
        assertEquals(List.of(3, 4), servers);
        servers.clear();
        StripeMap twoD = StripeMap.of(Layout.twoD(ServerClass.HDD, 4, 100, 1000), 8, 4).rotated(1);
        twoD.map(0, 400, (s, l, n, f) -> servers.add(s));
        assertEquals(List.of(4, 5, 6, 7), servers, "2-D rotates by whole groups");
        servers.clear();
        StripeMap ssd = StripeMap.of(Layout.oneDH(ServerClass.SSD, 100), 8, 4).rotated(6);
        ssd.map(0, 200, (s, l, n, f) -> servers.add(s));
        assertEquals(List.of(10, 11), servers, "rotation stays inside the server class");
    }

    @Test
    void impossibleLayoutsAreRejectedWithTheReason() {
        ConfigException e = assertThrows(ConfigException.class, () -> StripeMap.of(Layout.twoD(ServerClass.HDD, 3, 100, 1000), 8, 4));
        assertTrue(e.getMessage().contains("group size 3") && e.getMessage().contains("8"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> StripeMap.of(Layout.oneDH(ServerClass.SSD, 100), 8, 0));
        assertTrue(e.getMessage().contains("no ssd servers"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> SimLayouts.parse("3d", DEFAULTS, "--layout"));
        assertTrue(e.getMessage().contains("--layout") && e.getMessage().contains("'3d'"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> SimLayouts.parse("2d", DEFAULTS, "--layout"));
        assertTrue(e.getMessage().contains("group size"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> SimLayouts.parse("1dh,stripe=12q", DEFAULTS, "hint simpfs_layout"));
        assertTrue(e.getMessage().contains("hint simpfs_layout") && e.getMessage().contains("stripe='12q'"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> SimLayouts.parse("1dh,colour=red", DEFAULTS, "x"));
        assertTrue(e.getMessage().contains("colour"), e.getMessage());
    }

    @Test
    void specsAndCoreLayoutsRoundTrip() {
        for (String spec : List.of("1dh,stripe=4k,space=ssd", "1dv,region=1m", "2d:2,stripe=8k,region=1m,space=both", "hybrid,sh=16k,ss=112k")) {
            Layout l = SimLayouts.parse(spec, DEFAULTS, "t");
            assertEquals(l, SimLayouts.parse(l.toString(), DEFAULTS, "t"), spec);
            assertEquals(l, SimLayouts.resolve(SimLayouts.spread(l, 8, 4), DEFAULTS, "t"), spec);
        }
        Layout twoD = SimLayouts.spread(SimLayouts.parse("2d:4,stripe=8k", DEFAULTS, "t"), 8, 4);
        assertEquals(io.pdla.storage.Layout.Distribution.TWO_D, twoD.distribution());
        assertEquals(8 * 1024, twoD.stripeSize());
        assertEquals(8, twoD.serverCount(), "a 2-D file on the HServers spans all 8 of them, group after group");
        Layout hybrid = SimLayouts.spread(SimLayouts.parse("hybrid,sh=16k,ss=112k", DEFAULTS, "t"), 8, 4);
        assertEquals(12, hybrid.serverCount());
        assertEquals((8 * 16 + 4 * 112) * 1024 / 12, hybrid.stripeSize(), "hybrid: the mean strip of one row");
    }
}
