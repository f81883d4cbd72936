package io.pdla.storage;

import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * Who a file belongs to and who may read or write it, in the POSIX vocabulary every store that keeps owners
 * uses (POSIX itself, HDFS, sim-pfs's real files): owner and group names and the nine permission bits.
 * What the replicator copies from an original onto its replicas, and what redirect and the daemon compare
 * before a replica is served or written back.
 */
public record FileOwnership(String owner, String group, Set<PosixFilePermission> permissions) {
    public FileOwnership {
        if (owner == null || owner.isEmpty()) throw new IllegalArgumentException("ownership without an owner");
        if (group == null) throw new IllegalArgumentException("ownership of " + owner + " without a group");
        permissions = permissions.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(permissions));
    }

    /** The permissions a replica gets: the original's without execute bits. */
    public FileOwnership withoutExecute() {
        Set<PosixFilePermission> p = EnumSet.noneOf(PosixFilePermission.class);
        p.addAll(permissions);
        p.removeAll(EnumSet.of(PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_EXECUTE));
        return new FileOwnership(owner, group, p);
    }

    /** {@code rwxr-x---} form, for messages. */
    public String bits() {
        return PosixFilePermissions.toString(permissions.isEmpty() ? EnumSet.noneOf(PosixFilePermission.class) : EnumSet.copyOf(permissions));
    }

    @Override
    public String toString() {
        return owner + ":" + group + " " + bits();
    }
}
