package io.pdla.replicator.daemon;

import io.pdla.replicator.construct.PlacementConfig;
import io.pdla.size.ByteSize;

import java.net.URI;
import java.nio.file.Path;

/**
 * A plain entry point of the daemon (what {@code pdla daemon} runs; the crash tests start it as a child
 * process): {@code --db DIR [--once] [--replica-root URI] [--hservers N] [--sservers N --ssd-space SIZE]
 * [--chunk BYTES] [--rate BYTES_PER_S] [--poll MS] [--warmup]}. Exit 0 on success, 2 on bad arguments, 1 on failure.
 * The long-running form stops cleanly on SIGTERM: the shutdown hook stops the loop and waits for the
 * current build to end or abandon its temporary file.
 */
public final class DaemonMain {
    private DaemonMain() {
    }

    /** Set when a shutdown (SIGTERM) stopped the daemon: System.exit would then block on the running hooks. */
    private static volatile boolean shuttingDown;

    public static void main(String[] args) {
        int code = run(args);
        if (!shuttingDown) System.exit(code);
    }

    public static int run(String[] args) {
        DaemonOptions o;
        boolean once = false, warmUp = false;
        try {
            Path db = null;
            URI root = null;
            int h = 8, s = 0, chunk = 4 << 20;
            long ssd = 0, rate = 0, poll = 5000;
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--once" -> once = true;
                    case "--warmup" -> warmUp = true;
                    case "--db" -> db = Path.of(value(args, ++i, a));
                    case "--replica-root" -> root = URI.create(value(args, ++i, a));
                    case "--hservers" -> h = Integer.parseInt(value(args, ++i, a));
                    case "--sservers" -> s = Integer.parseInt(value(args, ++i, a));
                    case "--ssd-space" -> ssd = ByteSize.parse(value(args, ++i, a), a);
                    case "--chunk" -> chunk = (int) Math.min(Integer.MAX_VALUE, ByteSize.parse(value(args, ++i, a), a));
                    case "--rate" -> rate = ByteSize.parse(value(args, ++i, a), a);
                    case "--poll" -> poll = Long.parseLong(value(args, ++i, a));
                    default -> throw new IllegalArgumentException("unknown argument '" + a + "'");
                }
            }
            if (db == null) throw new IllegalArgumentException("--db DIR is required");
            o = DaemonOptions.defaults(db).withReplicaRoot(root).withPlacement(PlacementConfig.hddOnly(h).withSsd(s, ssd))
                    .withRate(chunk, rate).withPollMillis(poll).withWarmUp(warmUp);
        } catch (IllegalArgumentException e) {
            System.err.println("pdla daemon: " + e.getMessage());
            return 2;
        }
        return run(o, once);
    }

    public static int run(DaemonOptions o, boolean once) {
        return run(o, once, k -> true);
    }

    /** {@code patternKnown}: see {@link Replication}; {@code k -> true} when no pattern database is given. */
    public static int run(DaemonOptions o, boolean once, java.util.function.Predicate<io.pdla.pattern.PatternKey> patternKnown) {
        return run(o, once, patternKnown, null);
    }

    /** {@code beforeEachPass}: see {@link ReplicatorDaemon#beforeEachPass}; null for none. */
    public static int run(DaemonOptions o, boolean once, java.util.function.Predicate<io.pdla.pattern.PatternKey> patternKnown,
                          ReplicatorDaemon.PassHook beforeEachPass) {
        try {
            Replication r = Replication.open(o, System.out, patternKnown);
            if (beforeEachPass != null) r.daemon.beforeEachPass(beforeEachPass);
            r.daemon.showProgressBar(System.console() != null);
            if (once) {
                DaemonReport rep = r.daemon.runOnce();
                System.out.printf("done: %d published, %d up to date, %d covered, %d deferred, %d rejected, %d bytes copied%n",
                        rep.published(), rep.upToDate(), rep.covered(), rep.deferred(), rep.rejected(), rep.bytesCopied());
                return 0;
            }
            // the hook waits for the loop, not for the main thread: after the loop that thread returns into a caller's
            // System.exit (PdlaCommand.main), which blocks while hooks run, so a join held every SIGTERM'd daemon 30 s
            java.util.concurrent.CountDownLatch loopEnded = new java.util.concurrent.CountDownLatch(1);
            Thread hook = new Thread(() -> {
                shuttingDown = true;
                System.out.println("pdla daemon: shutting down after the current step");
                System.out.flush();
                r.daemon.stop();
                try {
                    loopEnded.await(30, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            }, "pdla-daemon-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            try {   // from the hook's registration on: whatever ends this, the hook is not left waiting
                if (o.gatherMillis() < 0) r.daemon.keepRanksApart();
                else r.daemon.gatherRanksFor(o.gatherMillis());
                if (o.warmUp()) System.out.println("pdla daemon: " + BuildWarmup.run(o, beforeEachPass == null ? () -> false : beforeEachPass::workWaiting).describe());
                System.out.println("pdla daemon: watching the queue in " + o.db() + " every " + o.pollMillis() + " ms");
                r.daemon.runUntilStopped(o.pollMillis());
                System.out.println("pdla daemon: stopped");
                System.out.flush();
            } finally {
                loopEnded.countDown();
            }
            return 0;
        } catch (Exception e) {
            System.err.println("pdla daemon: " + e.getMessage());
            return 1;
        }
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) throw new IllegalArgumentException(flag + " needs a value");
        return args[i];
    }
}
