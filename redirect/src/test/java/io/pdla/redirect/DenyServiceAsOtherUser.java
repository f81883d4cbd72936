package io.pdla.redirect;

import io.pdla.catalog.Catalog;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Child JVM of {@link CatalogTrustModelTest}, run as the second user, who may write the shared catalog (as every user
 * whose jobs redirect may) but not the original {@code ORIGINAL}: {@code CATALOG ORIGINAL drop} deletes every entry of
 * the original (prints {@code DROPPED n}); {@code CATALOG ORIGINAL plant DIR} writes a file of its own in {@code DIR}
 * and points every entry of the original at it as DIRTY (prints {@code PLANTED n}).
 */
public final class DenyServiceAsOtherUser {
    public static void main(String[] args) throws Exception {
        URI original = Path.of(args[1]).toUri();
        try (Catalog c = Catalog.open(Path.of(args[0]))) {
            List<ReplicaEntry> entries = c.transact(t -> t.entriesOf(original, problem -> { }));
            if ("drop".equals(args[2])) {
                c.transact(t -> {
                    for (ReplicaEntry e : entries) t.delete(e.pattern().key());
                    return null;
                });
                System.out.println("DROPPED " + entries.size());
            } else {
                Path planted = Path.of(args[3]).resolve("replica-9-deadbeef");
                Files.write(planted, new byte[Math.toIntExact(Files.size(Path.of(original)))]);
                c.transact(t -> {
                    for (ReplicaEntry e : entries) t.put(new ReplicaEntry(e.pattern(), planted.toUri(), e.layout(), e.layoutNote(), e.space(),
                            e.benefitSeconds(), e.bytesPerSServer(), ReplicaState.DIRTY, e.identity(), e.generation(), e.builtAtMillis()));
                    return null;
                });
                System.out.println("PLANTED " + entries.size());
            }
        }
        System.exit(0);
    }
}
