package io.pdla.replicator.daemon;

import io.pdla.replicator.construct.PlacementConfig;

import java.net.URI;
import java.nio.file.Path;

/**
 * Settings of the daemon and of the tools that share its machinery.
 *
 * @param db                 the catalog environment directory
 * @param replicaRoot        directory URI for replicas, or null for {@code .pdla-replicas/} beside each original
 * @param chunkBytes         copy buffer (one read of many pattern extents, one sequential write)
 * @param maxBytesPerSecond  copy rate limit, 0 for none
 * @param pollMillis         pause between passes of the long-running daemon
 * @param catalogWaitMillis  how long to wait for the catalog while another process holds it
 * @param gatherMillis       how long the long-running daemon waits for the rest of a job's ranks' patterns of a file
 *                           before combining them into one replica ({@link ReplicatorDaemon#gatherRanksFor}); negative:
 *                           one replica per rank's pattern ({@link ReplicatorDaemon#keepRanksApart})
 * @param warmUp             whether the long-running daemon first replicates a scratch file of its own ({@link BuildWarmup});
 *                           off by default, on in {@code pdla daemon}
 */
public record DaemonOptions(Path db, URI replicaRoot, PlacementConfig placement, int chunkBytes, long maxBytesPerSecond,
                            long pollMillis, long catalogWaitMillis, long gatherMillis, boolean warmUp) {
    public DaemonOptions {
        if (db == null) throw new IllegalArgumentException("the catalog directory (--db) is required");
        if (chunkBytes < 4096) throw new IllegalArgumentException("chunk must be >= 4096 bytes, was " + chunkBytes);
        if (maxBytesPerSecond < 0) throw new IllegalArgumentException("rate limit must be >= 0, was " + maxBytesPerSecond);
    }

    public static DaemonOptions defaults(Path db) {
        return new DaemonOptions(db, null, PlacementConfig.hddOnly(8), 4 << 20, 0, 5000, 30_000, ReplicatorDaemon.DEFAULT_GATHER_MILLIS, false);
    }

    public DaemonOptions withWarmUp(boolean on) {
        return new DaemonOptions(db, replicaRoot, placement, chunkBytes, maxBytesPerSecond, pollMillis, catalogWaitMillis, gatherMillis, on);
    }

    public DaemonOptions withCatalog(Path otherDb) {
        return new DaemonOptions(otherDb, replicaRoot, placement, chunkBytes, maxBytesPerSecond, pollMillis, catalogWaitMillis, gatherMillis, warmUp);
    }

    public DaemonOptions withReplicaRoot(URI root) {
        return new DaemonOptions(db, root, placement, chunkBytes, maxBytesPerSecond, pollMillis, catalogWaitMillis, gatherMillis, warmUp);
    }

    public DaemonOptions withPlacement(PlacementConfig p) {
        return new DaemonOptions(db, replicaRoot, p, chunkBytes, maxBytesPerSecond, pollMillis, catalogWaitMillis, gatherMillis, warmUp);
    }

    public DaemonOptions withRate(int chunk, long bytesPerSecond) {
        return new DaemonOptions(db, replicaRoot, placement, chunk, bytesPerSecond, pollMillis, catalogWaitMillis, gatherMillis, warmUp);
    }

    public DaemonOptions withPollMillis(long ms) {
        return new DaemonOptions(db, replicaRoot, placement, chunkBytes, maxBytesPerSecond, ms, catalogWaitMillis, gatherMillis, warmUp);
    }

    public DaemonOptions withGatherMillis(long ms) {
        return new DaemonOptions(db, replicaRoot, placement, chunkBytes, maxBytesPerSecond, pollMillis, catalogWaitMillis, ms, warmUp);
    }
}
