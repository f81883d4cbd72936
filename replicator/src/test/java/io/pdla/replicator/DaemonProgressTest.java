package io.pdla.replicator;

import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

class DaemonProgressTest {
    @TempDir
    Path tmp;

    @Test
    void onATerminalThePassDrawsABarThenListsWhatItDid() throws Exception {
        Path f = tmp.resolve("o.dat");
        Fixture.writeRandomFile(f, 1 << 20, 3);
        try (Fixture fx = new Fixture(tmp)) {
            fx.replication.daemon.showProgressBar(true);
            for (int r = 0; r < 2; r++) {
                fx.replication.queue.offer(KeyedPattern.of(new PatternKey(new AppIdentity("app", 2), r, f.toUri()), Geometry.strided(r * 4096L, 4096, 8192, 64)));
            }
            fx.replication.daemon.runOnce();
            String out = fx.progress.toString();
            assertTrue(out.contains("replicas") && out.contains("100%"), "the bar reached its end: " + out);
            assertTrue(out.contains("[1/2] PUBLISHED") && out.contains("[2/2] PUBLISHED"), "then a line per pattern: " + out);
        }
    }
}
