package io.pdla.replicator.catalog;

/**
 * Per original file: the content generation the shim maintains (bumped when a shim writer starts and when
 * it ends, and when a write invalidates replicas), the number of shim write sessions now open, and the
 * original's identity when the first of them started ({@code null} when there is none).
 */
public record FileRecord(long generation, int writers, FileIdentity identityBeforeWriters) {
    public static final FileRecord NEW = new FileRecord(0, 0, null);
}
