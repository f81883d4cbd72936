package io.pdla.replicator;

import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.daemon.DaemonReport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A file system that fills up during a replica build (a 2 MiB tmpfs the test mounts; skipped with a printed note
 * where mounting is not permitted): the build is abandoned, nothing partial is published or left behind, the
 * original is untouched, the pattern stays queued, and the daemon goes on serving and building other patterns
 * in the same pass; once there is room the replica is built.
 */
class FullFileSystemTest {
    @TempDir
    Path tmp;
    private Path mount;

    @AfterEach
    void unmount() throws Exception {
        if (mount != null) run("umount", mount.toString());
    }

    /** Exit code and output of a command. */
    private record Ran(int exit, String output) {
    }

    private static Ran run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly();
        if (p.exitValue() != 0) System.out.println(String.join(" ", cmd) + ": " + out.strip());
        return new Ran(p.exitValue(), out.strip());
    }

    private static KeyedPattern pattern(Path f, long start, int block, int stride, int count) {
        return KeyedPattern.of(new PatternKey(new AppIdentity("app", 1), 0, f.toUri()), Geometry.strided(start, block, stride, count));
    }

    @Test
    void aReplicaBuildThatFillsTheFileSystemIsAbandonedAndTheDaemonGoesOn() throws Exception {
        Path small = Files.createDirectories(tmp.resolve("small"));
        Ran mounted;
        try {
            mounted = run("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", small.toString());
        } catch (IOException noMount) {
            mounted = new Ran(-1, "mount could not be started: " + noMount.getMessage());
        }
        String why = "cannot mount a 2 MiB tmpfs (user " + System.getProperty("user.name") + ", mount exit " + mounted.exit() + ": "
                + mounted.output() + ")";
        if (mounted.exit() != 0) System.out.println("SKIPPED FullFileSystemTest: " + why);
        assumeTrue(mounted.exit() == 0, why);
        mount = small;

        Path big = small.resolve("big.dat");                 // 1.25 MiB of the 2 MiB; its replica needs 1 MiB more
        byte[] bigBytes = Fixture.writeRandomFile(big, 1280 << 10, 1);
        Path elsewhere = tmp.resolve("other.dat");           // on the ordinary disk
        byte[] otherBytes = Fixture.writeRandomFile(elsewhere, 1 << 20, 2);
        Path served = tmp.resolve("served.dat");
        byte[] servedBytes = Fixture.writeRandomFile(served, 1 << 20, 3);
        KeyedPattern bigP = pattern(big, 0, 65536, 65536, 16);
        KeyedPattern otherP = pattern(elsewhere, 0, 4096, 8192, 64);
        KeyedPattern servedP = pattern(served, 4096, 4096, 8192, 64);
        try (Fixture fx = new Fixture(tmp)) {
            fx.replication.queue.offer(servedP);
            assertEquals(1, fx.replication.daemon.runOnce().published());
            ReplicaEntry before = fx.catalog.transact(t -> t.entry(servedP.key())).orElseThrow();

            fx.replication.queue.offer(bigP);
            fx.replication.queue.offer(otherP);
            DaemonReport r = fx.replication.daemon.runOnce();
            String out = fx.progress.toString();
            assertEquals(1, r.published(), "the pattern on another file system is built in the same pass: " + out);
            assertEquals(1, r.deferred(), out);
            assertTrue(out.contains("no space left for the replica"), out);

            assertTrue(fx.catalog.transact(t -> t.entry(bigP.key())).isEmpty(), "nothing published for the full file system");
            assertArrayEquals(bigBytes, Files.readAllBytes(big), "the original is untouched");
            try (Stream<Path> s = Files.walk(small)) {
                List<Path> left = s.filter(Files::isRegularFile).filter(p -> !p.equals(big)).toList();
                assertEquals(List.of(), left, "no partial replica left behind");
            }
            assertTrue(fx.catalog.transact(t -> t.journalRows()).isEmpty(), "no journal row left");
            assertEquals(1, fx.replication.queue.pending().size(), "the pattern stays queued");
            ReplicaEntry other = fx.catalog.transact(t -> t.entry(otherP.key())).orElseThrow();
            assertArrayEquals(Fixture.patternBytes(otherP, otherBytes), Files.readAllBytes(Path.of(other.replica())));
            ReplicaEntry still = fx.catalog.transact(t -> t.entry(servedP.key())).orElseThrow();
            assertEquals(before.replica(), still.replica());
            assertEquals(ReplicaState.VALID, still.state());
            assertArrayEquals(Fixture.patternBytes(servedP, servedBytes), Files.readAllBytes(Path.of(still.replica())), "the other replica keeps serving");

            // room again (the original shrinks to what the pattern needs): the queued pattern is built
            Fixture.setLength(big, 1 << 20);
            byte[] shrunk = java.util.Arrays.copyOf(bigBytes, 1 << 20);
            assertEquals(1, fx.replication.daemon.runOnce().published(), fx.progress.toString());
            ReplicaEntry built = fx.catalog.transact(t -> t.entry(bigP.key())).orElseThrow();
            assertArrayEquals(Fixture.patternBytes(bigP, shrunk), Files.readAllBytes(Path.of(built.replica())));
        }
    }
}
