package io.pdla.replicator.daemon;

import java.util.List;

/** What one pass of the daemon did, pattern by pattern. */
public record DaemonReport(int published, int upToDate, int covered, int deferred, int rejected, long bytesCopied,
                           List<String> lines) {
    public int handled() {
        return published + upToDate + covered + rejected;
    }
}
