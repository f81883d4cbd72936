package io.pdla.replicator.daemon;

import io.pdla.catalog.CatalogAccess;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.costmodel.benefit.ReplicaSpace;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.pattern.Segment;
import io.pdla.replicator.construct.BuildOutcome;
import io.pdla.replicator.construct.LayoutPlanner;
import io.pdla.replicator.construct.Placement;
import io.pdla.replicator.construct.ReplicaBuilder;
import io.pdla.replicator.queue.PatternQueue;
import io.pdla.replicator.queue.QueuedPattern;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Drains the replication queue: global patterns first, then local patterns that no global replica covers;
 * places them all (Algorithm 1 for SSD space), then builds and publishes one replica per pattern. An item
 * leaves the queue once its replica is published, already current, covered, or rejected for a reason that
 * will not go away; deferred items stay for the next pass.
 */
public final class ReplicatorDaemon {
    private static final Logger LOG = Logger.getLogger(ReplicatorDaemon.class.getName());

    private final CatalogAccess catalog;
    private final PatternQueue queue;
    private final ReplicaBuilder builder;
    private final ReplicaScanner scanner;
    private final PrintStream progress;
    private final AtomicBoolean stop = new AtomicBoolean();
    private boolean cleaned;
    private boolean progressBar;
    private PassHook beforePass;
    /** A pass was asked for while the daemon was busy or about to wait: it runs at once (guarded by {@code stop}). */
    private boolean wakeRequested;
    /** How long a long-running daemon waits for the rest of a job's ranks to hand in their patterns of a file (0: not at all). */
    private long gatherNanos;
    /** When this daemon first saw some but not all of a job's ranks' patterns of a file (key: the job's global key of it). */
    private final Map<PatternKey, Long> firstSeen = new java.util.HashMap<>();
    /** The earliest end of a wait in {@link #firstSeen}, so that the next pass comes then rather than after the poll. */
    private long gatherDeadline = Long.MAX_VALUE;
    /** Combined patterns this daemon offered and then saw rejected: not offered again, their ranks built one by one. */
    private final java.util.Set<KeyedPattern> refusedCombined = new java.util.HashSet<>();
    private final java.util.Set<KeyedPattern> offeredCombined = new java.util.HashSet<>();

    /** Work done at the start of every pass, before the scan (the cli's: taking newly analysed patterns). */
    public interface PassHook {
        void run() throws IOException;

        /**
         * Called once before the first pass of a daemon that runs until stopped: a hook whose input can announce
         * itself (a directory watch) calls {@code wakeUp} to start the next pass at once rather than after the poll.
         */
        default void watch(Runnable wakeUp) {
        }

        /** Whether input waits for the daemon now (a hand-off in the spool): the daemon's warm-up gives way to it. */
        default boolean workWaiting() {
            return false;
        }
    }

    /**
     * Runs {@code hook} at the start of every pass. A failing hook is reported and the pass goes on with the queue
     * as it is: a daemon that follows the pattern database of running jobs (online PDLA) must not stop over it.
     */
    public void beforeEachPass(PassHook hook) {
        this.beforePass = hook;
    }

    public ReplicatorDaemon(CatalogAccess catalog, PatternQueue queue, ReplicaBuilder builder, ReplicaScanner scanner, PrintStream progress) {
        this.catalog = catalog;
        this.queue = queue;
        this.builder = builder;
        this.scanner = scanner;
        this.progress = progress;
    }

    /**
     * Draws a progress bar (bytes of queued patterns done, speed, the item at hand) on the progress stream
     * instead of a line per pattern, the lines then following when the pass ends. For terminals: in logs a
     * line per pattern reads better.
     */
    public void showProgressBar(boolean on) {
        this.progressBar = on;
    }

    /** What a daemon that runs until stopped waits, at most, for the rest of a job's ranks (online hand-offs arrive rank by rank). */
    public static final long DEFAULT_GATHER_MILLIS = 5000;

    /**
     * Combines a job's ranks' local patterns of a file into one replica ({@link RankMajorGroups}), waiting up to
     * {@code millis} from the first of them for the others before building any (0: combines what is queued). A daemon
     * that runs until stopped does this with {@link #DEFAULT_GATHER_MILLIS} unless told otherwise; a {@link #runOnce}
     * builds one replica per pattern unless told to combine. Why the long-running daemon: it takes running jobs'
     * hand-offs, which come rank by rank; the offline analyzer has already merged a job's same-shaped patterns into
     * a global one.
     */
    public void gatherRanksFor(long millis) {
        if (millis < 0) throw new IllegalArgumentException("gather time must be >= 0 ms, was " + millis);
        this.gatherNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(millis);
        this.combine = Boolean.TRUE;
    }

    /** One replica per rank's pattern, never combined (what {@link #gatherRanksFor} changes). */
    public void keepRanksApart() {
        this.combine = Boolean.FALSE;
        this.gatherNanos = 0;
    }

    /** Whether ranks' patterns are combined: null until set, then the mode's default ({@link #runUntilStopped}: yes). */
    private Boolean combine;

    /**
     * A long-running daemon scans the catalog at most this often ({@link #runUntilStopped}); every {@link #runOnce}
     * scans. Why: the catalog is opened per transaction, and a scan every pass of an online daemon polling every
     * 200 ms took most of a third of a core while nothing happened, CPU a running job on the same node lost. The
     * scan is the catalog's janitor (replicas of changed or vanished originals removed or queued again); redirect
     * checks every replica it serves at open whatever the catalog says, so a later scan serves nothing stale.
     */
    static final long SCAN_EVERY_MILLIS = 2000;

    /** One pass: clean leftovers (first pass only), scan, process the queue, return. */
    public DaemonReport runOnce() throws IOException {
        return pass(true, false);
    }

    /**
     * {@code scanAfter}: the scan runs after the builds rather than before. A long-running daemon woken by a hand-off
     * builds first: its scan (the catalog's janitor, a second or more under load) ahead of the builds put the job's
     * replicas off by that much (online PDLA, 2026-11-29), and nothing the scan does is needed for a build to be safe
     * (a build defers while DIRTY replicas of its original are not written back, and redirect checks every replica it
     * serves at open). What the scan queues again is built at once by the next pass.
     */
    DaemonReport pass(boolean scan, boolean scanAfter) throws IOException {
        if (!cleaned) {
            scanner.cleanLeftovers();
            cleaned = true;
        }
        // held from the hook's first transaction (the cli's transfer, through an access of its own) through the planning,
        // between the builds while items end without one, and let go before every build: a copy takes seconds, and the
        // job's ranks must reach the catalog meanwhile
        try (BookkeepingHold held = new BookkeepingHold(catalog)) {
            held.take();
            return pass(scan, scanAfter, held);
        }
    }

    private DaemonReport pass(boolean scan, boolean scanAfter, BookkeepingHold held) throws IOException {
        if (beforePass != null) {
            try {
                beforePass.run();
            } catch (IOException | RuntimeException e) {
                LOG.warning("replicator: the work before this pass failed, going on with the queue as it is: " + e.getMessage());
                if (progress != null) progress.println("pdla daemon: " + e.getMessage());
            }
        }
        if (scan && !scanAfter) {
            held.release();   // the scan holds the catalog itself, over its stretches without long work
            scanner.scan();
            held.take();
        }
        List<String> lines = new ArrayList<>();
        // the global replicas looked up for this pass's local items: one catalog transaction per file, not per item
        Map<PatternKey, Optional<ReplicaEntry>> globals = new java.util.HashMap<>();
        List<QueuedPattern> items = gatherRanks(queue.pending(), lines, globals);
        java.util.Set<PatternKey> queuedGlobals = new java.util.HashSet<>();
        for (QueuedPattern q : items) if (q.global()) queuedGlobals.add(q.pattern().key());
        // what gatherRanks found of a global queued in this pass is not kept: building it may replace the entry or mark
        // it DIRTY (ReplicaBuilder.begin) without an outcome that says so, so its locals look it up when they come, as before.
        // The others are as of the pass's start: another process's claim (DIRTY) or drop meanwhile is seen at the next
        // pass, where the scanner re-queues a global that is gone; a local covered meanwhile ends as it would then.
        globals.keySet().removeIf(queuedGlobals::contains);
        List<KeyedPattern> patterns = new ArrayList<>();
        for (QueuedPattern q : items) {
            // a combining daemon builds the locals a queued global of theirs holds only if that global is rejected: they
            // are not planned beside it (Algorithm 1 would give them SSD space first, their small requests promising more)
            if (q.pattern() == null || Boolean.TRUE.equals(combine) && !q.global() && queuedGlobals.contains(q.pattern().key().asGlobal())) continue;
            patterns.add(q.pattern());
        }
        // the SSD space in use is a catalog transaction of its own: asked only when there is something to place
        // a rank-major replica is priced as redirect reads it: each rank's region in read-ahead windows, all ranks at once
        Map<PatternKey, Placement> placements = new java.util.HashMap<>(patterns.isEmpty() ? Map.of()
                : builder.planner().plan(patterns, ssdBytesInUse(), RankMajorGroups::servedWindow));
        // the outcomes of items built together with an earlier one of the same file (one read of the original)
        Map<Long, BuildOutcome> together = new java.util.HashMap<>();
        int published = 0, upToDate = 0, covered = 0, deferred = 0, rejected = 0;
        long bytes = 0;
        // the global keys of this pass's queued globals not built: their ranks' locals wait for them, not built one by one
        java.util.Set<PatternKey> awaited = new java.util.HashSet<>();
        if (Boolean.TRUE.equals(combine)) for (QueuedPattern q : items) if (q.global()) awaited.add(q.pattern().key());
        ProgressBar bar = progressBar && progress != null && !items.isEmpty() ? bar(items) : null;
        int i = 0;
        for (QueuedPattern q : items) {
            i++;
            if (bar != null) bar.setExtraMessage(i + "/" + items.size() + (q.pattern() == null ? "" : " " + q.pattern().key().file().getPath()));
            if (stop.get() || Thread.currentThread().isInterrupted()) break;
            held.take();
            String line;
            if (q.pattern() == null) {
                queue.acknowledge(q);
                rejected++;
                line = "dropped undecodable queue item: " + q.problem();
            } else {
                KeyedPattern p = q.pattern();
                BuildOutcome o = together.remove(q.ticket());
                boolean unbuiltLocal = o == null && !p.key().global();
                // checked once: it walks every extent of the local against the global's geometry
                boolean heldByGlobal = unbuiltLocal && coveredByGlobal(p, globals);
                if (unbuiltLocal && !heldByGlobal && awaited.contains(p.key().asGlobal())) {
                    String waiting = "WAITING " + p.key().id() + ": for the global replica of " + p.key().asGlobal().id();
                    lines.add(waiting);
                    if (bar != null) bar.stepBy(p.totalBytes());
                    else if (progress != null) progress.printf("[%d/%d] %s%n", i, items.size(), waiting);
                    continue;
                }
                if (heldByGlobal) {
                    o = new BuildOutcome(BuildOutcome.Kind.COVERED, "covered by the global replica of " + p.key().asGlobal().id(), null);
                } else {
                    if (o == null) {
                        List<QueuedPattern> group = buildsOfSameFile(items, i - 1, together.keySet(), globals);
                        if (group.size() == 1) {
                            long t0 = System.nanoTime();
                            try {
                                Placement placement = placed(List.of(p), placements).get(p.key());
                                held.release();
                                o = builder.build(p, placement);
                            } catch (IOException | RuntimeException e) {
                                o = outcomeOfFailure(p, e);
                            }
                            o = withSpeed(o, p.totalBytes(), System.nanoTime() - t0, 1);
                        } else {
                            List<KeyedPattern> members = new ArrayList<>();
                            for (QueuedPattern g : group) members.add(g.pattern());
                            Map<PatternKey, Placement> groupPlacements = placed(members, placements);
                            held.release();
                            o = buildTogether(group, groupPlacements, together);
                        }
                        held.take();   // the build is done: its acknowledge and the items up to the next build share one open
                    }
                    if (o.kind() == BuildOutcome.Kind.PUBLISHED) bytes += p.totalBytes();
                }
                switch (o.kind()) {
                    case PUBLISHED -> published++;
                    case UP_TO_DATE -> upToDate++;
                    case COVERED -> covered++;
                    case DEFERRED -> deferred++;
                    case REJECTED -> rejected++;
                }
                // a global replica this pass built or found current covers the later local items it holds
                if (p.key().global() && o.entry() != null) globals.put(p.key(), Optional.of(o.entry()));
                // a global that will not be built frees its ranks' locals (built one by one); a deferred one keeps them waiting
                if (p.key().global() && o.kind() != BuildOutcome.Kind.DEFERRED) awaited.remove(p.key());
                if (o.kind() == BuildOutcome.Kind.REJECTED && offeredCombined.remove(p)) refusedCombined.add(p);
                if (o.finished()) queue.acknowledge(q);
                line = o.kind() + " " + p.key().id() + ": " + o.message();
            }
            lines.add(line);
            if (bar != null) bar.stepBy(q.pattern() == null ? 0 : q.pattern().totalBytes());
            else if (progress != null) progress.printf("[%d/%d] %s%n", i, items.size(), line);
            LOG.fine(line);
        }
        if (bar != null) {
            bar.close();
            for (int k = 0; k < lines.size(); k++) progress.printf("[%d/%d] %s%n", k + 1, items.size(), lines.get(k));
        }
        held.release();
        if (scan && scanAfter && !stop.get() && scanner.scan().requeued() > 0) wakeUp();
        return new DaemonReport(published, upToDate, covered, deferred, rejected, bytes, lines);
    }

    /**
     * Combines each job's local patterns of a file into one global pattern where they combine ({@link RankMajorGroups}),
     * queued durably beside them; returns the queue's items minus those held back. Items are held while some but not
     * all of a job's ranks have handed in their patterns of the file and the first came less than the gather time ago
     * (the rest are on their way; built as they come, they would make one replica per rank). Locals that a queued global
     * of theirs may cover are left to it (the pass builds globals first), and a job and file that already has a global
     * replica is not combined again: a second combined pattern under the same key would replace the first one's replica.
     * The global entries it looks up for that are put in {@code globals}, for the pass to use again.
     */
    private List<QueuedPattern> gatherRanks(List<QueuedPattern> items, List<String> lines, Map<PatternKey, Optional<ReplicaEntry>> globals)
            throws IOException {
        if (!Boolean.TRUE.equals(combine)) return items;
        Map<PatternKey, List<QueuedPattern>> byJobFile = new java.util.LinkedHashMap<>();
        java.util.Set<PatternKey> queuedGlobals = new java.util.HashSet<>();
        for (QueuedPattern q : items) {
            if (q.pattern() == null) continue;
            if (q.global()) queuedGlobals.add(q.pattern().key());
            else byJobFile.computeIfAbsent(q.pattern().key().asGlobal(), k -> new ArrayList<>()).add(q);
        }
        byJobFile.keySet().removeIf(queuedGlobals::contains);
        // a lone rank's pattern of a job of several is held too: built at once, it would serve that rank alone (its own
        // replica before the combined one) while the others read the original
        byJobFile.values().removeIf(g -> g.get(0).pattern().key().processes() < 2);
        firstSeen.keySet().retainAll(byJobFile.keySet());
        if (byJobFile.isEmpty()) {
            gatherDeadline = Long.MAX_VALUE;
            return items;
        }
        Map<PatternKey, Optional<ReplicaEntry>> existing = catalog.transact(t -> {
            Map<PatternKey, Optional<ReplicaEntry>> out = new java.util.HashMap<>();
            for (PatternKey k : byJobFile.keySet()) out.put(k, t.entry(k));
            return out;
        });
        globals.putAll(existing);
        long now = System.nanoTime();
        long deadline = Long.MAX_VALUE;
        java.util.Set<Long> held = new java.util.HashSet<>();
        List<KeyedPattern> offers = new ArrayList<>();
        for (Map.Entry<PatternKey, List<QueuedPattern>> e : byJobFile.entrySet()) {
            PatternKey key = e.getKey();
            // one pattern per rank, the latest handed in: the transfer from the pattern database offers a file's stored
            // patterns again with each new one, so a rank comes twice (and its second item is covered like the first)
            Map<Integer, KeyedPattern> byRank = new java.util.TreeMap<>();
            for (QueuedPattern q : e.getValue()) byRank.put(q.pattern().key().rank(), q.pattern());
            List<KeyedPattern> ranks = new ArrayList<>(byRank.values());
            // a global replica that already holds them all: the pass finds them covered; one that does not is replaced
            // by the combination of those queued now (the builder publishes under the same key, and defers while any
            // replica of the original holds writes it lacks)
            if (existing.get(key).isPresent() && coveredByEntry(ranks, existing.get(key).get())) continue;
            long distinct = ranks.size();
            if (distinct < key.processes() && gatherNanos > 0) {
                boolean fresh = !firstSeen.containsKey(key);
                long since = firstSeen.computeIfAbsent(key, k -> now);
                if (now - since < gatherNanos) {
                    for (QueuedPattern q : e.getValue()) held.add(q.ticket());
                    deadline = Math.min(deadline, since + gatherNanos);
                    // said once a wait, not every pass of a daemon polling every 200 ms
                    if (fresh) note(lines, "GATHERING " + key.id() + ": " + distinct + " of " + key.processes() + " ranks' patterns, waiting up to "
                            + java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(since + gatherNanos - now) + " ms for the rest");
                    continue;
                }
            }
            firstSeen.remove(key);
            Optional<KeyedPattern> combined = RankMajorGroups.combine(ranks);
            if (combined.isPresent() && !refusedCombined.contains(combined.get())) offers.add(combined.get());
        }
        gatherDeadline = deadline;
        if (!offers.isEmpty()) {
            queue.offerAll(offers);
            offeredCombined.addAll(offers);
            if (offeredCombined.size() > 10_000) offeredCombined.clear();   // bounded: forgetting one only lets a rejected pattern be offered again
            if (refusedCombined.size() > 10_000) refusedCombined.clear();
            for (KeyedPattern c : offers) note(lines, "COMBINED " + c.key().id() + ": " + c.geometry().groups() + " ranks' patterns into one replica");
            items = queue.pending();
        }
        if (held.isEmpty()) return items;
        List<QueuedPattern> out = new ArrayList<>(items.size());
        for (QueuedPattern q : items) if (!held.contains(q.ticket())) out.add(q);
        return out;
    }

    /** {@code placements} with a placement for each of {@code ps}: those left out of the pass's plan are planned now. */
    private Map<PatternKey, Placement> placed(List<KeyedPattern> ps, Map<PatternKey, Placement> placements) throws IOException {
        List<KeyedPattern> missing = new ArrayList<>();
        for (KeyedPattern p : ps) if (!placements.containsKey(p.key())) missing.add(p);
        if (!missing.isEmpty()) placements.putAll(builder.planner().plan(missing, ssdBytesInUse(), RankMajorGroups::servedWindow));
        return placements;
    }

    /** A line of the pass's report, printed at once unless a progress bar prints the lines at the pass's end. */
    private void note(List<String> lines, String line) {
        lines.add(line);
        if (progress != null && !progressBar) progress.println(line);
        LOG.fine(line);
    }

    /**
     * The item at {@code at} and the later items to be built from the same original alongside it: patterns of the same
     * file, all global or all local, no local that a global replica covers, none already built. The ranks of a job
     * hand in one pattern each of the same file; {@link ReplicaBuilder#buildTogether} reads the original once for them.
     */
    private List<QueuedPattern> buildsOfSameFile(List<QueuedPattern> items, int at, java.util.Set<Long> built,
                                                 Map<PatternKey, Optional<ReplicaEntry>> globals) throws IOException {
        QueuedPattern first = items.get(at);
        List<QueuedPattern> group = new ArrayList<>();
        group.add(first);
        // a key queued twice (the scanner re-queues a pattern still queued) is built once; its later item finds it current
        java.util.Set<PatternKey> keys = new java.util.HashSet<>();
        keys.add(first.pattern().key());
        for (int k = at + 1; k < items.size(); k++) {
            QueuedPattern q = items.get(k);
            if (q.pattern() == null || built.contains(q.ticket()) || q.global() != first.global()
                    || !q.pattern().key().file().equals(first.pattern().key().file()) || !keys.add(q.pattern().key())) continue;
            if (!q.global() && coveredByGlobal(q.pattern(), globals)) continue;
            group.add(q);
        }
        List<KeyedPattern> patterns = new ArrayList<>();
        for (QueuedPattern q : group) patterns.add(q.pattern());
        return ReplicaBuilder.readOnceFor(patterns) ? group : List.of(first);
    }

    /** Builds {@code group} together; returns the first item's outcome and keeps the others' in {@code together}. */
    private BuildOutcome buildTogether(List<QueuedPattern> group, Map<PatternKey, Placement> placements, Map<Long, BuildOutcome> together) {
        List<KeyedPattern> patterns = new ArrayList<>();
        long groupBytes = 0;
        for (QueuedPattern q : group) {
            patterns.add(q.pattern());
            groupBytes += q.pattern().totalBytes();
        }
        long t0 = System.nanoTime();
        List<ReplicaBuilder.Attempt> attempts = builder.buildTogether(patterns, placements);
        long took = System.nanoTime() - t0;
        BuildOutcome first = null;
        for (int k = 0; k < group.size(); k++) {
            ReplicaBuilder.Attempt a = attempts.get(k);
            BuildOutcome o = a.failure() != null ? outcomeOfFailure(a.pattern(), a.failure()) : a.outcome();
            o = withSpeed(o, groupBytes, took, group.size());
            if (k == 0) first = o;
            else together.put(group.get(k).ticket(), o);
        }
        return first;
    }

    /** What a build that threw comes to: put off for a shutdown or a full store, otherwise rejected with the reason. */
    private BuildOutcome outcomeOfFailure(KeyedPattern p, Exception e) {
        if (Thread.currentThread().isInterrupted() || stop.get()) {
            return new BuildOutcome(BuildOutcome.Kind.DEFERRED, "interrupted by shutdown", null);
        }
        if (noSpace(e)) {
            // a full file system passes: the build was abandoned (nothing published), the pattern stays queued
            LOG.warning("replicator: no space for the replica of " + p.key().id() + ", build abandoned, retried at the next pass: " + e.getMessage());
            return new BuildOutcome(BuildOutcome.Kind.DEFERRED, "no space left for the replica (build abandoned, nothing published; retried later): "
                    + e.getMessage(), null);
        }
        LOG.log(Level.FINE, "build failed", e);
        return new BuildOutcome(BuildOutcome.Kind.REJECTED, e.getClass().getSimpleName() + ": " + e.getMessage(), null);
    }

    /** A published outcome with the copy's speed: {@code bytes} copied in {@code nanos}, by one copy for {@code replicas} replicas. */
    private static BuildOutcome withSpeed(BuildOutcome o, long bytes, long nanos, int replicas) {
        if (o.kind() != BuildOutcome.Kind.PUBLISHED) return o;
        double s = Math.max(nanos / 1e9, 1e-9);
        String speed = replicas == 1 ? String.format(", %.1f MiB/s", bytes / 1048576.0 / s)
                : String.format(", %.1f MiB/s for %d replicas filled from one read of the original in %.2f s", bytes / 1048576.0 / s, replicas, s);
        return new BuildOutcome(o.kind(), o.message() + speed, o.entry());
    }

    private ProgressBar bar(List<QueuedPattern> items) {
        long total = 0;
        for (QueuedPattern q : items) if (q.pattern() != null) total += q.pattern().totalBytes();
        return new ProgressBarBuilder().setTaskName("replicas").setInitialMax(total).setUnit(" MiB", 1 << 20).showSpeed()
                .setUpdateIntervalMillis(250).setConsumer(new ConsoleProgressBarConsumer(progress)).build();
    }

    /** Runs passes every {@code pollMillis}, and at once when woken ({@link #wakeUp}), until {@link #stop()} (called by the shutdown hook on SIGTERM). */
    public void runUntilStopped(long pollMillis) throws IOException {
        if (beforePass != null) beforePass.watch(this::wakeUp);
        if (combine == null) gatherRanksFor(DEFAULT_GATHER_MILLIS);
        long lastScan = 0;
        boolean first = true;
        while (!stop.get()) {
            long now = System.nanoTime();
            boolean scan = first || now - lastScan >= java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(SCAN_EVERY_MILLIS);
            if (scan) lastScan = now;
            pass(scan, !first);
            first = false;
            synchronized (stop) {
                if (stop.get()) break;
                try {
                    long wait = pollMillis;
                    // a job's ranks being gathered: the pass that builds them comes when the wait ends, not after the poll
                    if (gatherDeadline != Long.MAX_VALUE) {
                        wait = Math.min(wait, Math.max(1, java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(gatherDeadline - System.nanoTime()) + 1));
                    }
                    if (!wakeRequested) stop.wait(wait);
                } catch (InterruptedException e) {
                    break;
                }
                wakeRequested = false;
            }
        }
    }

    /** Starts the next pass now (or right after the one running): new work was announced. */
    public void wakeUp() {
        synchronized (stop) {
            wakeRequested = true;
            stop.notifyAll();
        }
    }

    public void stop() {
        stop.set(true);
        synchronized (stop) {
            stop.notifyAll();
        }
    }

    /** Whether {@code e} is a valid replica holding every byte of every one of {@code ps}. */
    private static boolean coveredByEntry(List<KeyedPattern> ps, ReplicaEntry e) {
        if (e.state() != ReplicaState.VALID) return false;
        for (KeyedPattern p : ps) if (!holds(e.pattern(), p)) return false;
        return true;
    }

    private static boolean holds(KeyedPattern global, KeyedPattern local) {
        boolean[] all = {true};
        local.geometry().forEachExtent((off, len) -> {
            if (!all[0]) return;
            for (Segment s : global.geometry().map(off, len)) if (!s.inPattern()) all[0] = false;
        });
        return all[0];
    }

    /** A local pattern is covered when a valid global replica of the same job and file holds all its bytes. */
    private boolean coveredByGlobal(KeyedPattern local, Map<PatternKey, Optional<ReplicaEntry>> globals) throws IOException {
        PatternKey key = local.key().asGlobal();
        Optional<ReplicaEntry> g = globals.get(key);
        if (g == null) {
            g = catalog.transact(t -> t.entry(key));
            globals.put(key, g);
        }
        return g.isPresent() && coveredByEntry(List.of(local), g.get());
    }

    private long ssdBytesInUse() throws IOException {
        return catalog.transact(t -> {
            long[] sum = {0};
            t.forEachEntry(e -> {
                if (!e.space().equals(ReplicaSpace.HSERVERS.label())) sum[0] += e.bytesPerSServer();
            }, k -> { });
            return sum[0];
        });
    }

    /** Placement planner exposure for tools. */
    public LayoutPlanner planner() {
        return builder.planner();
    }

    /** Whether a build failed because its store is full (ENOSPC, or a store's NO_SPACE). */
    static boolean noSpace(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof io.pdla.storage.StorageException se && se.reason() == io.pdla.storage.StorageException.Reason.NO_SPACE) return true;
            if (String.valueOf(t.getMessage()).contains("No space left on device")) return true;
        }
        return false;
    }
}
