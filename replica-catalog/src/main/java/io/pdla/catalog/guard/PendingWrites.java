package io.pdla.catalog.guard;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.net.URI;
import java.util.Optional;

/**
 * Whether a replica may hold writes its original lacks, asked before the daemon deletes or replaces it for any
 * reason (stale, changed, evicted, pattern dropped, journal leftover). The catalog cannot answer: anyone who can
 * write it can turn a DIRTY replica holding another user's acknowledged writes into VALID or STALE. The replica's
 * in-step mark ({@link InStepMark}) can, since only a writer of the replica can set it.
 */
public final class PendingWrites {
    public enum Verdict {
        /** Gone, or its content is the marked in-step content: deleting it loses nothing. */
        NONE,
        /** Marked, and its content differs from the mark: someone allowed to write it did; write it back first. */
        HELD,
        /**
         * No valid mark (built before marks, a store that keeps none, or withdrawn by a writer that wrote through it
         * without the catalog): nothing tells its bytes from stale ones, so it is neither copied nor deleted.
         */
        UNVOUCHED
    }

    private PendingWrites() {
    }

    public static Verdict of(StorageDriver driver, URI replica) {
        try {
            if (!driver.exists(replica)) return Verdict.NONE;
            Optional<InStepMark.Mark> mark = InStepMark.read(driver, replica);
            if (mark.isEmpty()) return Verdict.UNVOUCHED;
            long size;
            try (StorageFile f = driver.open(replica, OpenOptions.readOnly())) {
                size = f.size();
            }
            return InStepMark.digestOf(driver, replica, size, mark.get()).equals(mark.get()) ? Verdict.NONE : Verdict.HELD;
        } catch (IOException | RuntimeException e) {
            // cannot tell: keeping a file costs space, deleting one might cost acknowledged writes
            return Verdict.UNVOUCHED;
        }
    }
}
