package io.pdla.redirect;

import io.pdla.catalog.Catalog;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * Child JVM of {@link ReplicaSecurityTest}, run as the second user, who may write the shared catalog but not the
 * original {@code ORIGINAL} nor its replicas: {@code CATALOG ORIGINAL stale} turns every DIRTY replica entry of the
 * original VALID (hiding the owner's pending writes), then STALE, as a catalog writer's claim that the original
 * moved on, so that the scanner would remove it; {@code CATALOG ORIGINAL evict} drops every entry of the original
 * and names its replica file in a journal row, as if an interrupted removal had left it. Prints {@code HIDDEN n}.
 */
public final class HideDirtyAsOtherUser {
    public static void main(String[] args) throws Exception {
        URI original = Path.of(args[1]).toUri();
        boolean evict = "evict".equals(args[2]);
        try (Catalog c = Catalog.open(Path.of(args[0]))) {
            List<ReplicaEntry> dirty = c.transact(t -> t.entriesOf(original, problem -> { }).stream()
                    .filter(e -> e.state() == ReplicaState.DIRTY).toList());
            c.transact(t -> {
                for (ReplicaEntry e : dirty) t.put(e.withState(ReplicaState.VALID));
                return null;
            });
            c.transact(t -> {
                for (ReplicaEntry e : dirty) {
                    if (evict) {
                        t.delete(e.key());
                        t.journal("evict-" + System.nanoTime(), List.of(e.replica()));
                    } else {
                        t.put(e.withState(ReplicaState.STALE));
                    }
                }
                return null;
            });
            System.out.println("HIDDEN " + dirty.size());
        }
        System.exit(0);
    }
}
