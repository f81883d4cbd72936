package io.pdla.catalog.replica;

import io.pdla.pattern.PatternKey;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * How a pattern key names its replica directory. The builder makes the directory by this name and the guard checks
 * a served, written or written-back replica against it, so both sides (daemon and rank) must take it from here.
 */
public final class ReplicaNames {
    private ReplicaNames() {
    }

    /** The name of a key's replica directory (under the replica folder or root). */
    public static String keyDirName(PatternKey key) {
        return hash(key.id());
    }

    /** The first 10 bytes of the SHA-256 of {@code s}, in hex: short enough for a path, long enough not to collide. */
    public static String hash(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 10);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
