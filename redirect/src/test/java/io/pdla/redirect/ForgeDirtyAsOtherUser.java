package io.pdla.redirect;

import io.pdla.catalog.Catalog;
import io.pdla.catalog.FileIdentity;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.catalog.guard.InStepMark;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Child JVM of {@link ReplicaSecurityTest}, run as the second user, who may write the shared catalog but not the
 * original {@code ORIGINAL} nor its replicas: {@code CATALOG ORIGINAL} turns every replica entry of the original
 * DIRTY and makes everything the catalog holds about it look current (the original's identity now, the file
 * record's generation), then tries to forge the in-step mark and to write the replica. Prints
 * {@code FORGED n}, {@code MARK <outcome>}, {@code WRITE <outcome>}, one a line.
 */
public final class ForgeDirtyAsOtherUser {
    public static void main(String[] args) throws Exception {
        URI original = Path.of(args[1]).toUri();
        StorageDriver posix = StorageDrivers.installed().forUri(original);
        FileIdentity now = FileIdentity.probe(posix, original);
        java.util.List<URI> replicas = new java.util.ArrayList<>();
        try (Catalog c = Catalog.open(Path.of(args[0]))) {
            int n = c.transact(t -> {
                int forged = 0;
                for (ReplicaEntry e : t.entriesOf(original, problem -> { })) {
                    t.put(new ReplicaEntry(e.pattern(), e.replica(), e.layout(), e.layoutNote(), e.space(), e.benefitSeconds(),
                            e.bytesPerSServer(), ReplicaState.DIRTY, now, t.file(original).generation(), System.currentTimeMillis()));
                    replicas.add(e.replica());
                    forged++;
                }
                return forged;
            });
            System.out.println("FORGED " + n);
        }
        for (URI r : replicas) {
            // a mark saying "changed since in step" would make the daemon copy: it must be out of this user's reach
            System.out.println("MARK " + (InStepMark.record(posix, r, InStepMark.Mark.whole(new byte[32])) ? "SET" : "DENIED")
                    + (InStepMark.withdraw(posix, r) ? "" : " (withdraw DENIED)"));
            try (var f = posix.open(r, OpenOptions.readWrite())) {
                f.write(0, ByteBuffer.wrap(new byte[]{1, 2, 3}));
                System.out.println("WRITE DONE");
            } catch (java.io.IOException e) {
                System.out.println("WRITE DENIED " + e.getMessage());
            }
        }
        System.exit(0);
    }
}
