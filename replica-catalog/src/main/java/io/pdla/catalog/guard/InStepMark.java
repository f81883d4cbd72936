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
 */
public final class InStepMark {
    private static final Logger LOG = Logger.getLogger(InStepMark.class.getName());
    /** The mark's name (POSIX: {@code user.pdla.in-step}). */
    public static final String NAME = "in-step";
    private static final byte VERSION = 1;
    /** What a writer that changed a replica without the catalog leaves: the replica can no longer be vouched for. */
    private static final byte[] WITHDRAWN = {0};
    private static final int CHUNK = 1 << 20;

    private InStepMark() {
    }

    public static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /**
     * Records {@code digest} as the replica's in-step content; false (logged) when its store keeps no marks or
     * refuses this process, and then the replica takes no writes.
     */
    public static boolean record(StorageDriver driver, URI replica, byte[] digest) {
        byte[] value = new byte[1 + digest.length];
        value[0] = VERSION;
        System.arraycopy(digest, 0, value, 1, digest.length);
        try {
            driver.setMark(replica, NAME, value);
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

    /** The recorded digest, or empty when the replica has no (valid) mark. */
    public static Optional<byte[]> read(StorageDriver driver, URI replica) throws IOException {
        Optional<byte[]> v = driver.mark(replica, NAME);
        if (v.isEmpty() || v.get().length != 33 || v.get()[0] != VERSION) return Optional.empty();
        return Optional.of(Arrays.copyOfRange(v.get(), 1, 33));
    }

    /** Whether the replica carries a valid mark: what a replica needs before it may take writes. */
    public static boolean present(StorageDriver driver, URI replica) {
        try {
            return read(driver, replica).isPresent();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The digest of the replica's {@code expectedBytes} bytes; an IOException when it has another size. */
    public static byte[] digestOf(StorageDriver driver, URI replica, long expectedBytes) throws IOException {
        MessageDigest md = newDigest();
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
        return md.digest();
    }
}
