package io.pdla.hdfs;

import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageException.Reason;

import java.net.URI;
import java.util.Locale;

/**
 * The MPI_Info hints this driver understands. Sizes accept a k, m or g suffix
 * (powers of 1024). Values are checked here so a typo fails at open with the file and key named, not as a
 * NameNode stack trace.
 */
final class HdfsHints {
    /** Block size of a file created by the open (bytes; a multiple of 512, at least the NameNode's minimum, 1 MiB by default). */
    static final String BLOCK_SIZE = "hdfs_block_size";
    /** Replication of a file created by the open. */
    static final String REPLICATION = "hdfs_replication";
    /** Storage policy set on a file created by the open (HOT, WARM, COLD, ONE_SSD, ALL_SSD, LAZY_PERSIST...). */
    static final String STORAGE_POLICY = "hdfs_storage_policy";

    private HdfsHints() {
    }

    /** Null when the hint is absent. */
    static Long blockSize(OpenOptions o, URI file) throws StorageException {
        String v = o.hints().get(BLOCK_SIZE);
        return v == null ? null : parseBlockSize(v, BLOCK_SIZE, file);
    }

    static Short replication(OpenOptions o, URI file) throws StorageException {
        String v = o.hints().get(REPLICATION);
        return v == null ? null : parseReplication(v, REPLICATION, file);
    }

    static String storagePolicy(OpenOptions o, URI file) throws StorageException {
        String v = o.hints().get(STORAGE_POLICY);
        return v == null ? null : parsePolicy(v, STORAGE_POLICY, file);
    }

    static long parseBlockSize(String value, String key, URI file) throws StorageException {
        long size = parseSize(value, key, file);
        if (size <= 0 || size % 512 != 0) {
            throw new StorageException(Reason.BAD_ARGUMENT, file + ": " + key + "=" + value
                    + " is not a positive multiple of 512 bytes (HDFS checksums every 512 bytes)");
        }
        return size;
    }

    static short parseReplication(String value, String key, URI file) throws StorageException {
        try {
            int r = Integer.parseInt(value.trim());
            if (r >= 1 && r <= Short.MAX_VALUE) return (short) r;
        } catch (NumberFormatException ignored) {
            // falls through to the error below
        }
        throw new StorageException(Reason.BAD_ARGUMENT, file + ": " + key + "=" + value + " is not a replication factor >= 1");
    }

    static String parsePolicy(String value, String key, URI file) throws StorageException {
        String p = value.trim().toUpperCase(Locale.ROOT);
        if (p.isEmpty()) throw new StorageException(Reason.BAD_ARGUMENT, file + ": " + key + " is empty");
        return p;
    }

    static long parseSize(String value, String key, URI file) throws StorageException {
        String v = value.trim().toLowerCase(Locale.ROOT);
        long mult = 1;
        if (v.endsWith("k")) mult = 1L << 10;
        else if (v.endsWith("m")) mult = 1L << 20;
        else if (v.endsWith("g")) mult = 1L << 30;
        if (mult != 1) v = v.substring(0, v.length() - 1);
        try {
            return Math.multiplyExact(Long.parseLong(v), mult);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new StorageException(Reason.BAD_ARGUMENT, file + ": " + key + "=" + value + " is not a size in bytes (k, m, g suffixes allowed)");
        }
    }
}
