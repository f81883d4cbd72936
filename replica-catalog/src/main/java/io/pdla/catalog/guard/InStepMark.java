package io.pdla.catalog.guard;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The digest of a replica's content when it was last in step with its original (built, or written back), kept
 * as a mark on the replica file itself ({@link StorageDriver#setMark}: on POSIX the extended attribute
 * {@code user.pdla.in-step}), where only a process that may write the replica can set it.
 *
 * <p>Why not in the catalog: every user of redirect can write the catalog, so they can turn a genuine replica of a
 * file they cannot write into DIRTY and forge anything recorded beside it; a daemon running as root would then
 * copy the replica's older bytes over the original. The mark decides instead: a DIRTY replica is copied back only
 * if its content is no longer what the mark says, i.e. someone who may write the replica (its original's owner,
 * or a member of its group where both grant group write, see {@link ReplicaGuard}) changed it; a DIRTY replica
 * whose content is still the marked one took no writes, and is never copied. A replica without a mark (built
 * before marks, or on a store that keeps none) takes no writes (redirect marks it stale instead), so a DIRTY one
 * cannot be vouched for and is not written back.
 *
 * <p>Two ways of taking the digest ({@link Mark#regionBytes}): the SHA-256 of the whole content (format 1), or, for a
 * replica whose regions are filled side by side (one rank's bytes a region, {@code Geometry.grouped}), the SHA-256 of
 * the SHA-256s of its consecutive regions of {@code regionBytes} (format 2). Why format 2: the builder then digests each
 * region as it fills it, instead of reading the whole replica back after the copy (0.7-1.5 s for 512 MiB beside a
 * running job, the last step before the replica could serve it). Both are read from a file's bytes in order
 * ({@link Digest}), so a write-back checks and renews either kind.
 */
public final class InStepMark {
    private static final Logger LOG = Logger.getLogger(InStepMark.class.getName());
    /** The mark's name (POSIX: {@code user.pdla.in-step}). */
    public static final String NAME = "in-step";
    private static final byte WHOLE = 1;
    private static final byte REGIONS = 2;
    private static final int SHA256_BYTES = 32;
    /** What a writer that changed a replica without the catalog leaves: the replica can no longer be vouched for. */
    private static final byte[] WITHDRAWN = {0};
    private static final int CHUNK = 1 << 20;

    private InStepMark() {
    }

    /**
     * A replica's in-step content: its digest, and how it was taken ({@code regionBytes} 0: of the whole content;
     * otherwise of the digests of its consecutive regions of that many bytes, the last one possibly shorter).
     */
    public record Mark(long regionBytes, byte[] digest) {
        public Mark {
            if (regionBytes < 0) throw new IllegalArgumentException("region size must be >= 0, was " + regionBytes);
            if (digest.length != SHA256_BYTES) throw new IllegalArgumentException("a SHA-256 digest has 32 bytes, not " + digest.length);
            digest = digest.clone();
        }

        /** The digest of a whole content (format 1). */
        public static Mark whole(byte[] digest) {
            return new Mark(0, digest);
        }

        /** The mark of a content whose consecutive regions of {@code regionBytes} have these digests, in order. */
        public static Mark ofRegions(long regionBytes, List<byte[]> regionDigests) {
            if (regionBytes <= 0) throw new IllegalArgumentException("region size must be > 0, was " + regionBytes);
            MessageDigest outer = InStepMark.newDigest();
            for (byte[] d : regionDigests) outer.update(d);
            return new Mark(regionBytes, outer.digest());
        }

        /** A digest taken the same way, to read a content into. */
        public Digest newDigest() {
            return Digest.of(regionBytes);
        }

        @Override
        public byte[] digest() {
            return digest.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Mark m && m.regionBytes == regionBytes && Arrays.equals(m.digest, digest);
        }

        @Override
        public int hashCode() {
            return 31 * Long.hashCode(regionBytes) + Arrays.hashCode(digest);
        }

        @Override
        public String toString() {
            return (regionBytes == 0 ? "whole" : "regions of " + regionBytes + " bytes") + " " + java.util.HexFormat.of().formatHex(digest);
        }

        byte[] encode() {
            ByteBuffer b = ByteBuffer.allocate(regionBytes == 0 ? 1 + SHA256_BYTES : 1 + Long.BYTES + SHA256_BYTES);
            if (regionBytes == 0) b.put(WHOLE);
            else b.put(REGIONS).putLong(regionBytes);
            return b.put(digest).array();
        }

        static Optional<Mark> decode(byte[] v) {
            if (v.length == 1 + SHA256_BYTES && v[0] == WHOLE) return Optional.of(whole(Arrays.copyOfRange(v, 1, v.length)));
            if (v.length == 1 + Long.BYTES + SHA256_BYTES && v[0] == REGIONS) {
                long region = ByteBuffer.wrap(v, 1, Long.BYTES).getLong();
                if (region > 0) return Optional.of(new Mark(region, Arrays.copyOfRange(v, 1 + Long.BYTES, v.length)));
            }
            return Optional.empty();
        }
    }

    /** A {@link Mark}'s digest taken over a content read in order, in pieces of any size. */
    public static final class Digest {
        private final long regionBytes;
        private final MessageDigest inner = newDigest();
        private final MessageDigest outer;
        private long inRegion;

        /** A digest of the whole content ({@code regionBytes} 0) or of its regions of {@code regionBytes}. */
        public static Digest of(long regionBytes) {
            if (regionBytes < 0) throw new IllegalArgumentException("region size must be >= 0, was " + regionBytes);
            return new Digest(regionBytes);
        }

        private Digest(long regionBytes) {
            this.regionBytes = regionBytes;
            this.outer = regionBytes == 0 ? null : newDigest();
        }

        /** Takes the buffer's remaining bytes (the buffer's position is left where it was). */
        public void update(ByteBuffer bytes) {
            ByteBuffer b = bytes.duplicate();
            if (outer == null) {
                inner.update(b);
                return;
            }
            while (b.hasRemaining()) {
                int n = (int) Math.min(b.remaining(), regionBytes - inRegion);
                inner.update(b.slice(b.position(), n));
                b.position(b.position() + n);
                inRegion += n;
                if (inRegion == regionBytes) {
                    outer.update(inner.digest());
                    inRegion = 0;
                }
            }
        }

        public Mark finish() {
            if (outer == null) return Mark.whole(inner.digest());
            if (inRegion > 0) outer.update(inner.digest());
            inRegion = 0;
            return new Mark(regionBytes, outer.digest());
        }
    }

    /** A plain SHA-256, what each of a mark's digests is. */
    public static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /**
     * Records {@code mark} as the replica's in-step content; false (logged) when its store keeps no marks or
     * refuses this process, and then the replica takes no writes.
     */
    public static boolean record(StorageDriver driver, URI replica, Mark mark) {
        try {
            driver.setMark(replica, NAME, mark.encode());
            return true;
        } catch (IOException | RuntimeException e) {
            if (e instanceof StorageException se && se.reason() == StorageException.Reason.UNSUPPORTED) {
                LOG.fine(() -> "replica " + replica + " gets no in-step mark (" + e.getMessage() + "): it will take no writes");
            } else {
                LOG.info("replica " + replica + ": in-step mark not recorded (" + e.getMessage() + "): it will take no writes");
            }
            return false;
        }
    }

    /**
     * Withdraws the mark of a replica changed outside a DIRTY claim (a writer that lost the catalog wrote through
     * it): from now on nothing vouches for it, so it is never written back. True when withdrawn or never marked.
     */
    public static boolean withdraw(StorageDriver driver, URI replica) {
        try {
            if (driver.mark(replica, NAME).isEmpty()) return true;
            driver.setMark(replica, NAME, WITHDRAWN);
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.warning("replica " + replica + ": in-step mark could not be withdrawn: " + e.getMessage());
            return false;
        }
    }

    /** The recorded mark, or empty when the replica has no (valid) mark. */
    public static Optional<Mark> read(StorageDriver driver, URI replica) throws IOException {
        Optional<byte[]> v = driver.mark(replica, NAME);
        return v.isEmpty() ? Optional.empty() : Mark.decode(v.get());
    }

    /** Whether the replica carries a valid mark: what a replica needs before it may take writes. */
    public static boolean present(StorageDriver driver, URI replica) {
        try {
            return read(driver, replica).isPresent();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * The mark of the replica's {@code expectedBytes} bytes as they are now, taken as {@code like} was taken; an
     * IOException when it has another size.
     */
    public static Mark digestOf(StorageDriver driver, URI replica, long expectedBytes, Mark like) throws IOException {
        Digest md = like.newDigest();
        try (StorageFile in = driver.open(replica, OpenOptions.readOnly())) {
            if (in.size() != expectedBytes) {
                throw new IOException("replica " + replica + " has " + in.size() + " bytes, expected " + expectedBytes);
            }
            ByteBuffer buf = ByteBuffer.allocate(CHUNK);
            for (long pos = 0; pos < expectedBytes; ) {
                buf.clear().limit((int) Math.min(CHUNK, expectedBytes - pos));
                int n = in.read(pos, buf);
                if (n <= 0) throw new IOException("replica " + replica + " ended at " + pos);
                buf.flip();
                md.update(buf);
                pos += n;
            }
        }
        return md.finish();
    }
}
