package io.pdla.cli;

import io.pdla.catalog.Catalog;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.queue.CatalogPatternQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code pdla daemon --once}, {@code pdla replicas list|show|drop} and {@code pdla sync} on a real catalog. */
class ReplicationCommandsTest {
    @TempDir
    Path tmp;

    private record Run(int code, String out, String err) {
    }

    private static Run run(Object command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = new CommandLine(command);
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void daemonReplicasAndSyncWorkOnOneCatalog() throws Exception {
        Path f = tmp.resolve("data.bin");
        byte[] data = new byte[256 << 10];
        new Random(1).nextBytes(data);
        Files.write(f, data);
        Path db = tmp.resolve("db");
        PatternKey key = new PatternKey(new AppIdentity("app", 2), 1, f.toUri());
        try (Catalog c = Catalog.open(db)) {
            new CatalogPatternQueue(c).offer(KeyedPattern.of(key, Geometry.strided(4096, 4096, 8192, 16)));
        }
        assertEquals(0, run(new DaemonCommand(), "--db", db.toString(), "--once").code());

        Run list = run(new ReplicasCommand(), "list", "--db", db.toString());
        assertEquals(0, list.code(), list.err());
        assertTrue(list.out().contains(key.id()) && list.out().contains("VALID") && list.out().contains("1 replica(s)"), list.out());

        Run show = run(new ReplicasCommand(), "show", "--db", db.toString(), key.id());
        assertEquals(0, show.code(), show.err());
        assertTrue(show.out().contains("usable:     yes"), show.out());

        Files.write(f, new byte[]{1, 2, 3}, java.nio.file.StandardOpenOption.WRITE); // changed behind the shim's back
        Run showChanged = run(new ReplicasCommand(), "show", "--db", db.toString(), key.id());
        assertTrue(showChanged.out().contains("usable:     no, original changed"), showChanged.out());

        Run sync = run(new SyncCommand(), f.toString(), "--db", db.toString());
        assertEquals(0, sync.code(), sync.err());
        assertTrue(sync.out().contains("PUBLISHED"), sync.out());
        assertTrue(run(new ReplicasCommand(), "show", "--db", db.toString(), key.id()).out().contains("usable:     yes"));

        Run drop = run(new ReplicasCommand(), "drop", "--db", db.toString(), key.id());
        assertEquals(0, drop.code(), drop.err());
        assertTrue(run(new ReplicasCommand(), "list", "--db", db.toString()).out().contains("0 replica(s)"));
        assertEquals(1, run(new ReplicasCommand(), "drop", "--db", db.toString(), key.id()).code(), "dropping twice fails");
    }

    @Test
    void badInputExitsWithTwoAndMissingCatalogWithOne() {
        assertEquals(2, run(new DaemonCommand(), "--once").code(), "--db is required");
        assertEquals(2, run(new DaemonCommand(), "--db", tmp.toString(), "--hservers", "0", "--once").code());
        assertEquals(2, run(new ReplicasCommand(), "show", "--db", tmp.toString(), "not-a-pattern-id").code());
        Run missing = run(new ReplicasCommand(), "list", "--db", tmp.resolve("none").toString());
        assertEquals(1, missing.code());
        assertTrue(missing.err().contains("no replica catalog"), missing.err());
        Run sync = run(new SyncCommand(), tmp.resolve("x").toString(), "--db", tmp.resolve("none").toString());
        assertEquals(1, sync.code());
        assertFalse(sync.err().isBlank());
    }
}
