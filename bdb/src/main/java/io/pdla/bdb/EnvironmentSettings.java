package io.pdla.bdb;

import java.time.Duration;

/**
 * How a store opens its JE environment. Every environment is transactional and commits {@code COMMIT_SYNC}
 * (an acknowledged change survives a crash); what differs per store is below.
 *
 * @param readOnly      open without write access (JE then takes no exclusive lock)
 * @param allowCreate   create an empty environment when the directory holds none
 * @param cacheBytes    JE cache size, 0 for JE's default
 * @param lockTimeout   how long a transaction waits for a record lock, null for JE's default
 * @param lockWait      how long {@link JeEnvironments#open} waits while another process holds the environment
 *                      open for writing; zero fails at once
 */
public record EnvironmentSettings(boolean readOnly, boolean allowCreate, long cacheBytes, Duration lockTimeout, Duration lockWait) {
    public EnvironmentSettings {
        if (cacheBytes < 0) throw new IllegalArgumentException("JE cache size must be >= 0 bytes, got " + cacheBytes);
        if (lockWait == null || lockWait.isNegative()) throw new IllegalArgumentException("environment lock wait must be >= 0, got " + lockWait);
        if (readOnly && allowCreate) throw new IllegalArgumentException("a read-only environment cannot be created");
    }

    /** Read-write, created if absent, JE's cache and lock timeout, no waiting for another process. */
    public static EnvironmentSettings readWrite() {
        return new EnvironmentSettings(false, true, 0, null, Duration.ZERO);
    }

    /** An existing environment, read-only. */
    public static EnvironmentSettings readOnlyExisting() {
        return new EnvironmentSettings(true, false, 0, null, Duration.ZERO);
    }

    public EnvironmentSettings withAllowCreate(boolean create) {
        return new EnvironmentSettings(readOnly, create, cacheBytes, lockTimeout, lockWait);
    }

    public EnvironmentSettings withCacheBytes(long bytes) {
        return new EnvironmentSettings(readOnly, allowCreate, bytes, lockTimeout, lockWait);
    }

    public EnvironmentSettings withLockTimeout(Duration timeout) {
        return new EnvironmentSettings(readOnly, allowCreate, cacheBytes, timeout, lockWait);
    }

    public EnvironmentSettings withLockWait(Duration wait) {
        return new EnvironmentSettings(readOnly, allowCreate, cacheBytes, lockTimeout, wait);
    }
}
