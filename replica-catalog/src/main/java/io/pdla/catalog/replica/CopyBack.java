package io.pdla.catalog.replica;

import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.guard.InStepMark;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Copies a DIRTY replica's bytes back to its pattern's offsets in the original. Both the daemon's write-back and a
 * rank that must give up a replica it wrote (redirect) do this, so it lives beside the catalog, not in the daemon.
 */
public final class CopyBack {
    private static final int CHUNK = 1 << 20;
    /** Bytes copied back by this JVM, for {@link FaultInjection}. */
    private static final AtomicLong COPIED = new AtomicLong();

    private CopyBack() {
    }

    /**
     * Copies a replica's bytes to its pattern's offsets in {@code out} (the original, open for writing); returns
     * the in-step mark of the bytes copied, taken over regions of {@code regionBytes} (0: whole; see {@link InStepMark.Mark}).
     */
    public static InStepMark.Mark copyBack(ReplicaEntry e, StorageFile out, StorageDrivers drivers, long regionBytes) throws IOException {
        InStepMark.Digest digest = InStepMark.Digest.of(regionBytes);
        StorageDriver rd = drivers.forUri(e.replica());
        try (StorageFile in = rd.open(e.replica(), OpenOptions.readOnly())) {
            if (in.size() != e.pattern().totalBytes()) {
                throw new IOException("DIRTY replica " + e.replica() + " of " + e.key().id() + " has " + in.size() + " bytes, expected "
                        + e.pattern().totalBytes() + "; it holds writes the original lacks, so nothing is dropped: repair or restore it");
            }
            ByteBuffer buf = ByteBuffer.allocate(CHUNK);
            long[] position = {0};
            try {
                e.pattern().geometry().forEachExtent((offset, length) -> {
                    try {
                        for (long done = 0; done < length; ) {
                            int n = (int) Math.min(CHUNK, length - done);
                            buf.clear().limit(n);
                            while (buf.hasRemaining()) {
                                int r = in.read(position[0] + buf.position(), buf);
                                if (r <= 0) throw new IOException("replica " + e.replica() + " ended at " + (position[0] + buf.position()));
                            }
                            buf.flip();
                            digest.update(buf.duplicate());
                            out.write(offset + done, buf);
                            position[0] += n;
                            FaultInjection.writeBackCopied(COPIED.addAndGet(n));
                            done += n;
                        }
                    } catch (IOException x) {
                        throw new UncheckedIOException(x);
                    }
                });
            } catch (UncheckedIOException x) {
                throw x.getCause();
            }
        }
        return digest.finish();
    }
}
