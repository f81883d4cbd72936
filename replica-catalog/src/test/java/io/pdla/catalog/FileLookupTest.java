package io.pdla.catalog;

import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.storage.Layout;
import io.pdla.storage.StorageDrivers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What one rank reads from the catalog at an open and hands to the others arrives whole, or not at all. */
class FileLookupTest {
    @TempDir
    Path dir;

    @Test
    void whatRankZeroReadsEveryRankDecodesAndDamageIsNamed() throws Exception {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        Path original = dir.resolve("f.dat");
        Files.write(original, new byte[1 << 16]);
        URI uri = original.toUri();
        FileIdentity id = FileIdentity.probe(StorageDrivers.installed().forUri(uri), uri);
        int n = 1 + r.nextInt(40);
        List<ReplicaEntry> entries = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            KeyedPattern p = KeyedPattern.of(PatternKey.local(new AppIdentity("app", n), i, uri), Geometry.contiguous(r.nextInt(60_000), 1 + r.nextInt(5000)));
            entries.add(new ReplicaEntry(p, dir.resolve("replica-" + i).toUri(), Layout.DEFAULT, "", "HServers", r.nextDouble(), 0,
                    ReplicaState.values()[r.nextInt(ReplicaState.values().length)], id, r.nextInt(9), System.currentTimeMillis()));
        }
        FileRecord record = new FileRecord(7, 1, id);
        try (Catalog c = Catalog.open(dir.resolve("catalog"))) {
            c.transact(t -> {
                entries.forEach(t::put);
                t.putFile(uri, record);
                return null;
            });
            FileLookup read = FileLookup.read(c, StorageDrivers.installed().forUri(uri), uri, problem -> { });
            assertEquals(n, read.entries().size(), "seed " + seed);
            assertEquals(record, read.file());
            assertEquals(id, read.identity());
            byte[] bytes = read.toBytes();
            assertEquals(read, FileLookup.fromBytes(bytes), "seed " + seed);
            IllegalArgumentException cut = assertThrows(IllegalArgumentException.class, () -> FileLookup.fromBytes(Arrays.copyOf(bytes, bytes.length - 3)));
            assertTrue(cut.getMessage().contains("truncated"), cut.getMessage());
            IllegalArgumentException padded = assertThrows(IllegalArgumentException.class, () -> FileLookup.fromBytes(Arrays.copyOf(bytes, bytes.length + 2)));
            assertTrue(padded.getMessage().contains("2 bytes after"), padded.getMessage());
        }
    }
}
