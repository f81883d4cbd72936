package io.pdla.replicator.construct;

import io.pdla.access.ExtentList;
import io.pdla.catalog.CatalogAccess;
import io.pdla.catalog.FileIdentity;
import io.pdla.catalog.FileRecord;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.catalog.ReplicaValidity;
import io.pdla.catalog.guard.InStepMark;
import io.pdla.catalog.guard.PendingWrites;
import io.pdla.catalog.guard.ReplicaGuard;
import io.pdla.catalog.replica.ReplicaNames;
import io.pdla.pattern.KeyedPattern;
import io.pdla.storage.Capability;
import io.pdla.storage.CopyOwnership;
import io.pdla.storage.Layout;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageFile;
import io.pdla.storage.sieve.SievingSettings;
import io.pdla.storage.sieve.SievingStorageFile;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * Builds one replica: a new file holding exactly the bytes the pattern touches, in pattern order, and
 * publishes it atomically:
 * <ol>
 * <li>journal the temporary and final names (one catalog transaction), noting the original's generation
 * and identity; refuse while shim writers are active;</li>
 * <li>create the replica directory with its layout, copy into the temporary file, sync it;</li>
 * <li>rename it to its final name (and sync the directory where the driver is POSIX);</li>
 * <li>commit the catalog entry, removing the journal row, only if the original's generation and identity
 * are what they were in step 1 and no writer began.</li>
 * </ol>
 * A crash anywhere leaves the catalog either without the entry (and the journal names the files to clean
 * up) or with the complete, synced replica.
 */
public final class ReplicaBuilder {
    private static final Logger LOG = Logger.getLogger(ReplicaBuilder.class.getName());
    /** Directory beside each original that holds its replicas when no replica root is given. */
    public static final String DEFAULT_DIR = ".pdla-replicas/";

    private final CatalogAccess catalog;
    private final StorageDrivers drivers;
    private final LayoutPlanner planner;
    private final URI replicaRoot;
    private final int chunkBytes;
    private final long maxBytesPerSecond;

    /**
     * @param replicaRoot       directory URI for all replicas, or null for {@value #DEFAULT_DIR} beside each original
     * @param maxBytesPerSecond copy rate limit so the daemon does not starve applications (0 = none)
     */
    public ReplicaBuilder(CatalogAccess catalog, StorageDrivers drivers, LayoutPlanner planner, URI replicaRoot,
                          int chunkBytes, long maxBytesPerSecond) {
        this.catalog = catalog;
        this.drivers = drivers;
        this.planner = planner;
        this.replicaRoot = replicaRoot;
        this.chunkBytes = chunkBytes;
        this.maxBytesPerSecond = maxBytesPerSecond;
    }

    private static final Runnable NOTHING = () -> { };
    /** Per builder, so that a step set for one daemon (a test's) can never run inside another one of the same JVM. */
    private final java.util.concurrent.atomic.AtomicReference<Runnable> beforeIndexing = new java.util.concurrent.atomic.AtomicReference<>(NOTHING);

    /**
     * Test seam: {@code step} runs once, at this builder's next publication, when the new replica file is in place
     * and before its original is indexed and the writers that skipped the catalog are looked for (the window such a
     * writer's whole open can fall into). Replays the race of {@code UnreplicatedFilesTest}. Package-private: only
     * code of this package reaches it, and the one caller outside is test code declared in it
     * ({@code BuilderTestSeams}, in redirect's test sources), so no production class can set a step.
     */
    void onceBeforeIndexing(Runnable step) {
        beforeIndexing.set(step);
    }

    /** The security rules for this catalog's replicas (re-read each time: a daemon may record a root). */
    public ReplicaGuard guard() {
        return ReplicaGuard.forCatalog(catalog.directory());
    }

    public LayoutPlanner planner() {
        return planner;
    }

    /** The directory of one pattern's replica: a stable name from the pattern key. */
    public URI replicaDir(KeyedPattern p) {
        URI root = replicaRoot != null ? replicaRoot : p.key().file().resolve(DEFAULT_DIR);
        String s = root.toString();
        if (!s.endsWith("/")) root = URI.create(s + "/");
        return root.resolve(ReplicaNames.keyDirName(p.key()) + "/");
    }

    /** A build past its checks, its files journalled: it ends published or abandoned ({@link #abandon}). */
    private record Started(KeyedPattern pattern, Placement placement, StorageDriver driver, StorageDriver rdriver, URI dir, String buildId,
                           URI tmp, URI fin, FileIdentity before, FileRecord startFile, Optional<ReplicaEntry> existing, boolean keepOld,
                           Optional<CopyOwnership.Owner> owner) {
    }

    /** How a build ended before copying, or the build to copy. */
    private record Begun(BuildOutcome outcome, Started started) {
    }

    /** The replica's layout as the store made it, and why it was not applied (empty when it was). */
    private record Prepared(Layout layout, String notApplied) {
    }

    /** One pattern's build among several: its outcome, or the failure {@link #build} would have thrown for it. */
    public record Attempt(KeyedPattern pattern, BuildOutcome outcome, Exception failure) {
    }

    public BuildOutcome build(KeyedPattern pattern, Placement placement) throws IOException {
        Begun b = begin(pattern, placement);
        if (b.outcome() != null) return b.outcome();
        Started s = b.started();
        try {
            Prepared prepared = prepare(s);
            return publish(s, prepared, copy(pattern, s.driver(), s.rdriver(), s.tmp(), s.owner()));
        } catch (CopyOwnership.CannotOwn e) {
            return refuse(s, e);
        } catch (IOException | RuntimeException e) {
            abandon(s);
            throw e;
        }
    }

    /**
     * Builds the replicas of several patterns of one original. Where their pieces ascend through the file and together
     * cover it densely ({@link SharedOriginalCopy#suits}: the ranks' interleaved patterns of one file), the original
     * is read once for all of them and every replica is filled from that read; otherwise they are built one after
     * another by {@link #build}. Each build is {@link #build}'s in every other respect (its checks, journal, in-step
     * mark, publication and outcome), and one that fails leaves the others to go on.
     */
    public List<Attempt> buildTogether(List<KeyedPattern> patterns, java.util.Map<io.pdla.pattern.PatternKey, Placement> placements) {
        List<Attempt> out = new ArrayList<>(patterns.size());
        if (!readOnceFor(patterns)) {
            for (KeyedPattern p : patterns) {
                try {
                    out.add(new Attempt(p, build(p, placements.get(p.key())), null));
                } catch (IOException | RuntimeException e) {
                    out.add(new Attempt(p, null, e));
                }
            }
            return out;
        }
        return new SharedBuild(patterns, placements).run();
    }

    /** Whether {@link #buildTogether} reads the original once for these patterns (rather than building them one by one). */
    public static boolean readOnceFor(List<KeyedPattern> patterns) {
        // one build per key at a time: a second build of a key must see the first one's replica (UP_TO_DATE), not race it
        return patterns.stream().map(p -> p.key().file()).distinct().count() == 1
                && patterns.stream().map(KeyedPattern::key).distinct().count() == patterns.size() && SharedOriginalCopy.suits(patterns);
    }

    /** {@link #buildTogether}'s shared read: each build begun and prepared on its own, one copy, each published on its own. */
    private final class SharedBuild {
        private final List<KeyedPattern> patterns;
        private final java.util.Map<io.pdla.pattern.PatternKey, Placement> placements;
        private final Attempt[] results;

        SharedBuild(List<KeyedPattern> patterns, java.util.Map<io.pdla.pattern.PatternKey, Placement> placements) {
            this.patterns = patterns;
            this.placements = placements;
            this.results = new Attempt[patterns.size()];
        }

        List<Attempt> run() {
            List<Integer> at = new ArrayList<>();
            List<Started> started = new ArrayList<>();
            List<Prepared> prepared = new ArrayList<>();
            List<SharedOriginalCopy.Member> members = new ArrayList<>();
            try {
                for (int i = 0; i < patterns.size(); i++) {
                    KeyedPattern p = patterns.get(i);
                    Started s = null;
                    try {
                        Begun b = begin(p, placements.get(p.key()));
                        if (b.outcome() != null) {
                            results[i] = new Attempt(p, b.outcome(), null);
                            continue;
                        }
                        s = b.started();
                        Prepared prep = prepare(s);
                        StorageFile o = openReplica(s.rdriver(), s.tmp(), s.owner());
                        Started dropped = s;
                        at.add(i);
                        started.add(s);
                        prepared.add(prep);
                        // a replica that fails mid-copy gives its space back at once, before the others go on
                        members.add(new SharedOriginalCopy.Member(p, o, InStepMark.newDigest(), () -> {
                            closeQuietly(o);
                            deleteQuietly(dropped.rdriver(), dropped.tmp());
                        }));
                    } catch (IOException | RuntimeException e) {
                        fail(i, s, e);
                    }
                }
                if (!members.isEmpty()) copyAll(members, at, started);
                for (int k = 0; k < members.size(); k++) {
                    int i = at.get(k);
                    if (results[i] != null) continue;
                    SharedOriginalCopy.Member m = members.get(k);
                    Started s = started.get(k);
                    try {
                        if (m.failure() != null && worthRetryingAlone(m.failure())) {
                            // the replica that filled a store is not always the one whose write hit the end of it: each
                            // one dropped for its writes is built again alone, as it would have been without the shared read
                            abandon(s);
                            results[i] = retryAlone(s);
                            continue;
                        }
                        if (m.failure() != null) throw m.failure();
                        if (m.written() != s.pattern().totalBytes()) {   // never publish a replica short of its pattern's bytes
                            throw new IOException("replica of " + s.pattern().key().id() + " holds " + m.written() + " of its pattern's "
                                    + s.pattern().totalBytes() + " bytes after the shared copy");
                        }
                        m.out.sync();
                        m.out.close();
                        results[i] = new Attempt(s.pattern(), publish(s, prepared.get(k), InStepMark.Mark.whole(m.digest.digest())), null);
                    } catch (IOException | RuntimeException e) {
                        fail(i, s, e);
                    }
                }
            } finally {
                for (SharedOriginalCopy.Member m : members) closeQuietly(m.out);
            }
            return List.of(results);
        }

        /** One read of the original for all members; a failure to read it fails every member still without a result. */
        private void copyAll(List<SharedOriginalCopy.Member> members, List<Integer> at, List<Started> started) {
            Started first = started.get(0);
            URI original = first.pattern().key().file();
            List<KeyedPattern> ps = new ArrayList<>();
            for (SharedOriginalCopy.Member m : members) ps.add(m.pattern);
            try (StorageFile in = openOriginal(first.driver(), original)) {
                syncQuietly(in);
                SharedOriginalCopy copy = new SharedOriginalCopy(in, chunkBytes, new RateLimit(maxBytesPerSecond));
                if (started.stream().allMatch(s -> s.rdriver().has(Capability.BUFFERED_WRITES))) copy.writeBehind(WriteBehind.DEFAULT_EVERY_BYTES);
                // a local file is read ahead of the copy into the page cache (two windows), so that its reads overlap
                // the replicas' writes; other stores have no cache to read into, and would only read twice
                try (ReadAhead ahead = "file".equals(original.getScheme()) && !in.bypassesCache() ? new ReadAhead(first.driver().open(original, OpenOptions.readOnly()),
                        SharedOriginalCopy.low(ps), Math.min(in.size(), SharedOriginalCopy.reach(ps)), chunkBytes, 2L * chunkBytes) : null) {
                    if (ahead != null) copy.onWindow(ahead::at);
                    copy.run(members);
                }
            } catch (IOException | RuntimeException e) {
                for (int k = 0; k < members.size(); k++) if (results[at.get(k)] == null) fail(at.get(k), started.get(k), e);
            }
        }

        private static boolean worthRetryingAlone(IOException e) {
            if (e instanceof InterruptedIOException || Thread.currentThread().isInterrupted()) return false;
            // a pattern past the end of the original fails alone just the same
            return !(e instanceof StorageException se && se.reason() == StorageException.Reason.BAD_ARGUMENT);
        }

        private Attempt retryAlone(Started s) {
            try {
                return new Attempt(s.pattern(), build(s.pattern(), s.placement()), null);
            } catch (IOException | RuntimeException e) {
                return new Attempt(s.pattern(), null, e);
            }
        }

        /** As {@link #build} ends a build that failed: refused for an owner it cannot give, otherwise abandoned and the failure kept. */
        private void fail(int i, Started s, Exception e) {
            KeyedPattern p = patterns.get(i);
            if (s == null) {
                results[i] = new Attempt(p, null, e);
            } else if (e instanceof CopyOwnership.CannotOwn c) {
                results[i] = new Attempt(p, refuse(s, c), null);
            } else {
                abandon(s);
                results[i] = new Attempt(p, null, e);
            }
        }
    }

    private static void closeQuietly(StorageFile f) {
        try {
            f.close();
        } catch (IOException | RuntimeException e) {
            LOG.fine("closing " + f.uri() + ": " + e.getMessage());
        }
    }

    /** The pre-copy checks of one build; journals its files when it goes on. */
    private Begun begin(KeyedPattern pattern, Placement placement) throws IOException {
        URI original = pattern.key().file();
        StorageDriver driver = drivers.forUri(original);
        if (!driver.exists(original)) {
            return new Begun(new BuildOutcome(BuildOutcome.Kind.REJECTED, "original " + original + " of pattern " + pattern.key().id() + " does not exist", null), null);
        }
        FileIdentity before = FileIdentity.probe(driver, original);
        if (before.changeStamp().equals(io.pdla.storage.ChangeStamp.NONE)) {
            return new Begun(new BuildOutcome(BuildOutcome.Kind.REJECTED, "the store of " + original + " reports no change stamp, so a replica"
                    + " could never be vouched for against a restore that puts size and time back", null), null);
        }
        // the replica gets the original's owner and group: a daemon that could not give it that owner does not build it
        // (each store judges whose a file is and who may hand it over: CopyOwnership; empty where it keeps no owners)
        CopyOwnership store = driver.copyOwnership();
        Optional<CopyOwnership.Owner> owner = store.ownerOf(original);
        String cannotOwn = owner.isPresent() ? store.reasonCannotOwn(owner.get(), original) : null;
        if (cannotOwn != null) {
            LOG.warning("replicator: refusing to replicate " + original + " for " + pattern.key().id() + ": " + cannotOwn);
            return new Begun(new BuildOutcome(BuildOutcome.Kind.REJECTED, "refused: " + cannotOwn, null), null);
        }
        URI dir = replicaDir(pattern);
        String buildId = System.currentTimeMillis() + "-" + UUID.randomUUID().toString().substring(0, 8);
        URI tmp = dir.resolve("replica-" + buildId + ".tmp");
        URI fin = dir.resolve("replica-" + buildId);
        record Start(FileRecord file, Optional<ReplicaEntry> existing, long dirty) {
        }
        Start start = catalog.transact(t -> {
            FileRecord f = t.file(original);
            Optional<ReplicaEntry> existing = t.entry(pattern.key());
            long dirty = t.entriesOf(original, p -> { }).stream().filter(e -> e.state() == ReplicaState.DIRTY).count();
            if (f.writers() == 0 && dirty == 0) t.journal(buildId, List.of(tmp, fin));
            return new Start(f, existing, dirty);
        });
        if (start.file().writers() > 0) {
            return new Begun(new BuildOutcome(BuildOutcome.Kind.DEFERRED, start.file().writers() + " shim writer(s) have " + original + " open", null), null);
        }
        if (start.dirty() > 0) {
            // the original lacks bytes those replicas hold: a copy of it now would be stale
            return new Begun(new BuildOutcome(BuildOutcome.Kind.DEFERRED, start.dirty() + " DIRTY replica(s) of " + original + " are not written back yet", null), null);
        }
        if (start.existing().isPresent() && start.existing().get().pattern().equals(pattern)
                && ReplicaValidity.usable(start.existing().get(), start.file(), before) && replicaIntact(start.existing().get())
                && guard().reasonRefused(original, ReplicaNames.keyDirName(pattern.key()), start.existing().get().replica()) == null) {
            catalog.transact(t -> {
                t.unjournal(buildId);
                return null;
            });
            return new Begun(new BuildOutcome(BuildOutcome.Kind.UP_TO_DATE, "replica " + start.existing().get().replica() + " is current", start.existing().get()), null);
        }
        boolean keepOld = false;
        // about to be replaced: whatever the catalog says of it, a replica that differs from its in-step mark holds
        // writes its original lacks (PendingWrites); it is DIRTY again and written back before anything is rebuilt
        if (start.existing().isPresent() && guard().reasonRefused(original, ReplicaNames.keyDirName(pattern.key()), start.existing().get().replica()) == null) {
            ReplicaEntry old = start.existing().get();
            PendingWrites.Verdict pending = PendingWrites.of(drivers.forUri(old.replica()), old.replica());
            if (pending == PendingWrites.Verdict.HELD) {
                catalog.transact(t -> {
                    t.unjournal(buildId);
                    Optional<ReplicaEntry> cur = t.entry(pattern.key());
                    if (cur.isPresent() && cur.get().equals(old)) t.put(old.withState(ReplicaState.DIRTY));
                    return null;
                });
                return new Begun(new BuildOutcome(BuildOutcome.Kind.DEFERRED, "replica " + old.replica() + " differs from its in-step mark: it holds writes "
                        + original + " lacks, DIRTY again; written back before a rebuild", null), null);
            }
            keepOld = pending == PendingWrites.Verdict.UNVOUCHED;
        }
        return new Begun(null, new Started(pattern, placement, driver, drivers.forUri(dir), dir, buildId, tmp, fin, before, start.file(),
                start.existing(), keepOld, owner));
    }

    /** As {@link #build} refuses a replica it cannot give the original's owner: nothing left behind, REJECTED. */
    private BuildOutcome refuse(Started s, CopyOwnership.CannotOwn e) {
        abandon(s);
        URI original = s.pattern().key().file();
        LOG.warning("replicator: refusing to replicate " + original + " for " + s.pattern().key().id() + ": " + e.getMessage());
        return new BuildOutcome(BuildOutcome.Kind.REJECTED, "refused: " + e.getMessage(), null);
    }

    /** Leaves nothing of a failed build behind; if even this fails the journal row makes the next start-up clean it. */
    private void abandon(Started s) {
        deleteQuietly(s.rdriver(), s.tmp());
        deleteQuietly(s.rdriver(), s.fin());
        try {
            catalog.transact(t -> {
                t.unjournal(s.buildId());
                return null;
            });
        } catch (IOException | RuntimeException ignored) {
            LOG.fine("journal row " + s.buildId() + " left for the start-up scan");
        }
    }

    /** The replica's directory with the original's owner, and its layout where the store has layouts. */
    private Prepared prepare(Started s) throws IOException {
        Layout layout = planner.layoutOf(s.pattern(), s.placement());
        StorageDriver rdriver = s.rdriver();
        URI dir = s.dir();
        // no symbolic link followed, no folder of another user used; the key directory gets the original's owner
        if (s.owner().isPresent()) rdriver.copyOwnership().prepareDirectory(s.owner().get(), dir);
        else rdriver.mkdirs(dir);
        String notApplied = "the store has no layouts";
        if (rdriver.has(Capability.LAYOUT)) {
            // A layout is an optimisation: a store that cannot express it still gets the replica.
            try {
                rdriver.setLayout(dir, layout);
                layout = rdriver.layout(dir);   // what the store made of the plan, in the same vocabulary
                notApplied = "";
            } catch (StorageException e) {
                notApplied = e.getMessage();
                LOG.info("replica layout not applied on " + dir + ": " + e.getMessage());
            }
        }
        return new Prepared(layout, notApplied);
    }

    /** Marks the copied replica, renames it into place and commits its entry if the original is still what was copied. */
    private BuildOutcome publish(Started s, Prepared prepared, InStepMark.Mark mark) throws IOException {
        KeyedPattern pattern = s.pattern();
        Placement placement = s.placement();
        StorageDriver driver = s.driver();
        StorageDriver rdriver = s.rdriver();
        URI dir = s.dir();
        String buildId = s.buildId();
        URI tmp = s.tmp();
        URI fin = s.fin();
        FileIdentity before = s.before();
        FileRecord startFile = s.startFile();
        Optional<ReplicaEntry> existing = s.existing();
        boolean keepOld = s.keepOld();
        URI original = pattern.key().file();
        Layout layout = prepared.layout();
        String notApplied = prepared.notApplied();
        // the in-step mark, set on the file itself where only a writer of the replica can change it: what lets a
        // write-back tell writes from a forged DIRTY entry (InStepMark). A store without marks: no writes into it
        InStepMark.record(rdriver, tmp, mark);
        if (!rdriver.has(Capability.RENAME)) {
            throw new StorageException(StorageException.Reason.UNSUPPORTED, rdriver.scheme() + ": cannot publish replica " + fin + " atomically without rename");
        }
        rdriver.rename(tmp, fin);
        syncDirectory(rdriver, dir);
        ReplicaEntry entry = new ReplicaEntry(pattern, fin, layout, notApplied, placement.space().label(), placement.benefitSeconds(),
                placement.bytesPerSServer(), ReplicaState.VALID, before, startFile.generation(), System.currentTimeMillis());
        beforeIndexing.getAndSet(NOTHING).run();
        // before the entry can exist, so that "not in the index" always means "no replica"; then the writers
        // that relied on its absence (UnreplicatedWriters: this order and theirs make one side see the other)
        io.pdla.catalog.ReplicatedOriginals.add(catalog.directory(), original);
        int unregistered = io.pdla.catalog.UnreplicatedWriters.alive(catalog.directory(), original);
        // probed only now: such a writer registers no session (nothing moves the generation), so its bytes show in
        // the identity alone, and one that wrote after the copy and closed before the marker check above did both
        // before this probe. Probed before the check (as it was), its writes were missed and the replica published
        // with the older bytes; the first DIRTY claim then wrote those back over the writer's (SoakTest, 2026-11-26)
        FileIdentity after = unregistered > 0 ? before : FileIdentity.probe(driver, original);
        String refused = unregistered > 0 ? unregistered + " writer(s) opened " + original + " before it had a replica and still have it open"
                : catalog.transact(t -> {
            FileRecord f = t.file(original);
            if (f.generation() != startFile.generation() || f.writers() > 0) {
                return "the original's generation moved from " + startFile.generation() + " to " + f.generation() + " while copying";
            }
            if (!after.equals(before)) return "the original changed while copying (" + before + " -> " + after + ")";
            Optional<ReplicaEntry> old = t.entry(pattern.key());
            t.put(entry);
            t.unjournal(buildId);
            if (old.isPresent() && !old.get().replica().equals(fin)) t.journal(buildId + "-old", List.of(old.get().replica()));
            return null;
        });
        if (refused != null) {
            deleteQuietly(rdriver, fin);
            catalog.transact(t -> {
                t.unjournal(buildId);
                return null;
            });
            return new BuildOutcome(BuildOutcome.Kind.DEFERRED, refused, null);
        }
        if (existing.isPresent() && !existing.get().replica().equals(fin)) {
            // the catalog's path is data: deleted only where a replica may be
            String keep = keepOld ? "it has no in-step mark, so it may hold writes nothing vouches for; delete it by hand once inspected"
                    : guard().reasonNotDeletable(existing.get().replica());
            if (keep == null) deleteQuietly(drivers.forUri(existing.get().replica()), existing.get().replica());
            else LOG.warning("replicator: not deleting " + existing.get().replica() + ": " + keep);
            catalog.transact(t -> {
                t.unjournal(buildId + "-old");
                return null;
            });
        }
        return new BuildOutcome(BuildOutcome.Kind.PUBLISHED, "published " + fin + " (" + pattern.totalBytes() + " bytes, " + placement.describe() + ")", entry);
    }

    private static void syncQuietly(StorageFile original) {
        try {
            original.sync();
        } catch (IOException | RuntimeException e) {
            LOG.fine("original " + original.uri() + " cannot be synced through a read-only handle here: " + e.getMessage());
        }
    }

    /** The replica file exists and has the pattern's size: a cheap guard against vanished or truncated files. */
    public boolean replicaIntact(ReplicaEntry e) {
        try {
            StorageDriver d = drivers.forUri(e.replica());
            if (!d.exists(e.replica())) return false;
            try (StorageFile f = d.open(e.replica(), OpenOptions.readOnly())) {
                return f.size() == e.pattern().totalBytes();
            }
        } catch (IOException | RuntimeException ex) {
            return false;
        }
    }

    /** Copies the pattern's bytes into the new replica; returns their in-step mark. */
    private InStepMark.Mark copy(KeyedPattern pattern, StorageDriver src, StorageDriver dst, URI tmp, Optional<CopyOwnership.Owner> owner) throws IOException {
        List<KeyedPattern> regions = regionsOf(pattern);
        // the regions are filled side by side, so the replica's store must take writes beyond its end (HDFS appends only)
        if (regions.size() > 1 && dst.has(Capability.RANDOM_WRITE) && SharedOriginalCopy.suits(regions)) {
            return copyRegions(pattern, regions, src, dst, tmp, owner);
        }
        return InStepMark.Mark.whole(copyInOrder(pattern, src, dst, tmp, owner));
    }

    /**
     * A replica of several ranks' patterns ({@code Geometry.grouped}: rank after rank) as one pattern per rank's region,
     * each region's first byte at its rank's {@code processRun} multiple; a single pattern otherwise.
     */
    private static List<KeyedPattern> regionsOf(KeyedPattern pattern) {
        io.pdla.pattern.Geometry g = pattern.geometry();
        if (g.groups() < 2) return List.of(pattern);
        List<KeyedPattern> out = new ArrayList<>(g.groups());
        for (int i = 0; i < g.groups(); i++) {
            io.pdla.pattern.Geometry copy = g.groupCopy(i);
            out.add(new KeyedPattern(pattern.key(), copy, Math.max(1, copy.extentCount()), copy.totalBytes()));
        }
        return out;
    }

    /**
     * The ranks' regions filled side by side from one pass over the original (the ranks' blocks interleave in it: read in
     * the replica's order, rank after rank, each rank's copy swept the whole file; 79 MiB/s for 64 ranks' 256 MiB on
     * sim-pfs, so a job's third pass still read the original). The members share the replica's one output, each writing
     * from its region's start, and each digests its region as it fills it: the mark is of the regions' digests
     * ({@link InStepMark.Mark#ofRegions}), so nothing reads the replica back (that took 0.7-1.5 s for 512 MiB beside a
     * running job, after the copy and before publication).
     */
    private InStepMark.Mark copyRegions(KeyedPattern pattern, List<KeyedPattern> regions, StorageDriver src, StorageDriver dst, URI tmp,
                                        Optional<CopyOwnership.Owner> owner) throws IOException {
        URI original = pattern.key().file();
        long regionBytes = pattern.geometry().groupBase().totalBytes();
        try (StorageFile in = openOriginal(src, original); StorageFile out = openReplica(dst, tmp, owner)) {
            syncQuietly(in);
            List<SharedOriginalCopy.Member> members = new ArrayList<>(regions.size());
            for (int i = 0; i < regions.size(); i++) {
                members.add(new SharedOriginalCopy.Member(regions.get(i), out, i * regionBytes, InStepMark.newDigest(), () -> { }));
            }
            SharedOriginalCopy copy = new SharedOriginalCopy(in, chunkBytes, new RateLimit(maxBytesPerSecond));
            if (dst.has(Capability.BUFFERED_WRITES)) copy.writeBehind(WriteBehind.DEFAULT_EVERY_BYTES);
            try (ReadAhead ahead = "file".equals(original.getScheme()) && !in.bypassesCache() ? new ReadAhead(src.open(original, OpenOptions.readOnly()),
                    SharedOriginalCopy.low(regions), Math.min(in.size(), SharedOriginalCopy.reach(regions)), chunkBytes, 2L * chunkBytes) : null) {
                if (ahead != null) copy.onWindow(ahead::at);
                copy.run(members);
            }
            List<byte[]> digests = new ArrayList<>(members.size());
            for (SharedOriginalCopy.Member m : members) {
                if (m.failure() != null) throw m.failure();
                if (m.written() != regionBytes) {   // never publish a replica short of its pattern's bytes
                    throw new IOException("region of " + m.pattern.geometry().start() + " holds " + m.written() + " of its " + regionBytes
                            + " bytes after the shared copy of " + pattern.key().id());
                }
                digests.add(m.digest.digest());
            }
            out.sync();
            return InStepMark.Mark.ofRegions(regionBytes, digests);
        }
    }

    /** Copies the pattern's bytes in its order, reading the original through data sieving. */
    private byte[] copyInOrder(KeyedPattern pattern, StorageDriver src, StorageDriver dst, URI tmp, Optional<CopyOwnership.Owner> owner) throws IOException {
        RateLimit rate = new RateLimit(maxBytesPerSecond);
        java.security.MessageDigest digest = InStepMark.newDigest();
        // read through data sieving: a strided pattern's pieces (16 KiB every 64 KiB) come from a few large reads of
        // the original instead of one small read each, which the kernel cannot read ahead for (cold: 2.5x faster on
        // this project's test machine); sparse patterns are read piece by piece as before (the automatic rule)
        try (StorageFile in = SievingStorageFile.wrap(src.open(pattern.key().file(), OpenOptions.readOnly()), SievingSettings.DEFAULT);
             StorageFile out = openReplica(dst, tmp, owner)) {
            long originalSize = in.size();
            // what writers left in the page cache becomes durable before a replica vouches for it (the daemon
            // pays for this, not the writers' close)
            syncQuietly(in);
            ByteBuffer buf = ByteBuffer.allocateDirect(chunkBytes);
            List<long[]> batch = new ArrayList<>();
            long[] state = {0, 0}; // bytes in batch, bytes written
            try {
                pattern.geometry().forEachExtent((off, len) -> {
                    long o = off;
                    long l = len;
                    while (l > 0) {
                        long take = Math.min(l, chunkBytes - state[0]);
                        batch.add(new long[]{o, take});
                        state[0] += take;
                        o += take;
                        l -= take;
                        if (state[0] == chunkBytes) flush(in, out, buf, batch, state, originalSize, rate, digest);
                    }
                });
                flush(in, out, buf, batch, state, originalSize, rate, digest);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            out.sync();
        }
        return digest.digest();
    }

    private void flush(StorageFile in, StorageFile out, ByteBuffer buf, List<long[]> batch, long[] state, long originalSize, RateLimit rate,
                       java.security.MessageDigest digest) {
        if (batch.isEmpty()) return;
        try {
            if (Thread.currentThread().isInterrupted()) throw new InterruptedIOException("replica build interrupted");
            ExtentList.Builder b = ExtentList.builder(batch.size());
            for (long[] e : batch) b.add(e[0], e[1]);
            ExtentList extents = b.build();
            buf.clear().limit(Math.toIntExact(state[0]));
            long got = in.readv(extents, buf);
            if (got != state[0]) {
                throw new StorageException(StorageException.Reason.BAD_ARGUMENT, "pattern reaches past the end of original "
                        + in.uri() + " (" + originalSize + " bytes; pattern needs up to offset " + extents.endOffset() + ")");
            }
            buf.flip();
            digest.update(buf.duplicate());
            out.write(state[1], buf);
            long n = state[0];
            state[1] += n;
            state[0] = 0;
            batch.clear();
            rate.copied(n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The original, for a copy that reads it once in windows: around the page cache where the store can and judges it
     * worth it (POSIX: while the file is not cached; a page-cache copy of an O_DIRECT job's 512 MiB took the daemon
     * about 0.9 s of CPU beside it), and then without a read-ahead into that cache.
     */
    private static StorageFile openOriginal(StorageDriver src, URI original) throws IOException {
        return src.open(original, src.has(Capability.DIRECT_IO) ? OpenOptions.readOnly().bypassingCache() : OpenOptions.readOnly());
    }

    /** The new replica's temporary file, given the original's owner, group and permissions before any byte goes in. */
    private static StorageFile openReplica(StorageDriver dst, URI tmp, Optional<CopyOwnership.Owner> owner) throws IOException {
        // written once, read by later passes or runs: its copy through the page cache took a core-second per 512 MiB
        // on the cores of the job it was built for, and evicted what that host had cached (HDFS drops behind its
        // block writes for the same reason)
        OpenOptions create = new OpenOptions(true, true, true, true, java.util.Map.of());
        StorageFile out = dst.open(tmp, dst.has(Capability.DIRECT_IO) ? create.bypassingCache() : create);
        try {
            if (owner.isPresent()) dst.copyOwnership().secureFile(owner.get(), tmp);
            return out;
        } catch (IOException | RuntimeException e) {
            closeQuietly(out);
            throw e;
        }
    }

    /**
     * Makes a rename durable as its store says ({@link StorageDriver#syncDirectory}: POSIX forces the directory, HDFS
     * journals renames itself). Where it cannot, the rename is as durable as the store made it and the build goes on,
     * as it does on a file system that cannot force a directory.
     */
    static void syncDirectory(StorageDriver driver, URI dir) {
        try {
            driver.syncDirectory(dir);
        } catch (IOException | RuntimeException e) {
            LOG.fine(() -> "directory sync not possible on " + dir + ": " + e);
        }
    }

    static void deleteQuietly(StorageDriver d, URI uri) {
        try {
            if (d.exists(uri)) d.delete(uri);
        } catch (IOException e) {
            LOG.warning("could not delete " + uri + ": " + e.getMessage());
        }
    }
}
