package io.pdla.bench.replica;

import io.pdla.catalog.Catalog;
import io.pdla.catalog.FileIdentity;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.catalog.ReplicatedOriginals;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.storage.Layout;
import io.pdla.storage.StorageDrivers;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A file with {@code n} VALID replica entries in a real catalog: entry i is one local pattern of another
 * application covering block i (4 KiB), so every open looks all of them up and every write's claim search runs
 * over all of them, while no replica needs to be opened for reading (they serve another application).
 */
record ReplicatedFileFixture(Path original, Path catalog, List<ReplicaEntry> entries) {
    static final int BLOCK = 4096;

    static ReplicatedFileFixture create(Path dir, int n) throws IOException {
        Path original = dir.resolve("original.dat"), catalog = dir.resolve("catalog");
        Files.write(original, new byte[Math.max(1, n) * BLOCK]);
        URI uri = original.toUri();
        FileIdentity identity = FileIdentity.probe(StorageDrivers.installed().forUri(uri), uri);
        AppIdentity other = new AppIdentity("replica-scale-other", n);
        List<ReplicaEntry> entries = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            KeyedPattern p = KeyedPattern.of(PatternKey.local(other, i, uri), Geometry.contiguous((long) i * BLOCK, BLOCK));
            entries.add(new ReplicaEntry(p, dir.resolve("replica-" + i).toUri(), Layout.DEFAULT, "", "HServers", 1.0, 0,
                    ReplicaState.VALID, identity, 0, System.currentTimeMillis()));
        }
        try (Catalog c = Catalog.open(catalog)) {
            c.transact(t -> {
                entries.forEach(t::put);
                return null;
            });
        }
        ReplicatedOriginals.add(catalog, uri);
        return new ReplicatedFileFixture(original, catalog, entries);
    }
}
