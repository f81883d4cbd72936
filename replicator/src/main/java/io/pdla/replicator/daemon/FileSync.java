package io.pdla.replicator.daemon;

import io.pdla.catalog.FileIdentity;
import io.pdla.catalog.FileRecord;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.catalog.ReplicaValidity;
import io.pdla.catalog.WriteSessions;
import io.pdla.catalog.WriterSession;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.replicator.construct.BuildOutcome;
import io.pdla.replicator.construct.Placement;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code pdla sync FILE}: brings one original and its replicas up to date, now instead of at the daemon's next
 * pass: ends the write sessions of dead processes, writes DIRTY replicas (those that took the shim's writes)
 * back to the original, then rebuilds every replica of the file that is stale, changed, missing or truncated.
 */
public final class FileSync {
    private final Replication r;

    public FileSync(Replication r) {
        this.r = r;
    }

    public List<String> sync(URI original) throws IOException {
        return sync(original, java.util.Set.of());
    }

    /**
     * As {@link #sync(URI)}, and also ends the write sessions held by processes on {@code hostsDown}: hosts the
     * operator (or the batch scheduler) declares down. A session's owner can be judged dead only on its own host
     * ({@link WriterSession#ownerDead}), so a session of a host that died stays open, and keeps the file's DIRTY
     * replicas from being written back, until someone who knows the host is gone says so. The declaration is the
     * fencing: a process still writing on a host declared down would write into replicas no longer accounted for.
     */
    public List<String> sync(URI original, java.util.Set<String> hostsDown) throws IOException {
        List<String> out = new ArrayList<>();
        StorageDriver driver = StorageDrivers.installed().forUri(original);
        if (!driver.exists(original)) throw new IOException("pdla sync: " + original + " does not exist");
        for (WriterSession w : r.catalog.transact(t -> t.writers(original))) {
            if (w.ownerDead()) {
                WriteSessions.end(r.catalog, driver, original, w.sessionId());
                out.add("ended write session of dead process " + w.pid());
            } else if (hostsDown.contains(w.host())) {
                WriteSessions.end(r.catalog, driver, original, w.sessionId());
                out.add("ended write session of process " + w.pid() + " on " + w.host() + " (host declared down)");
            } else {
                out.add("process " + w.pid() + " on " + w.host() + " still writes " + original + "; its replicas are rebuilt after it closes");
            }
        }
        out.addAll(new WriteBack(r.catalog, StorageDrivers.installed()).writeBack(original));
        List<ReplicaEntry> entries = r.catalog.transact(t -> t.entriesOf(original, p -> out.add("undecodable entry: " + p)));
        FileRecord f = r.catalog.transact(t -> t.file(original));
        FileIdentity now = FileIdentity.probe(driver, original);
        List<KeyedPattern> rebuild = new ArrayList<>();
        for (ReplicaEntry e : entries) {
            if (e.state() == ReplicaState.DIRTY) {
                out.add("not written back yet (writers have the file open): " + e.key().id());
                continue;
            }
            String why = ReplicaValidity.reasonUnusable(e, f, now);
            if (why == null && !r.builder.replicaIntact(e)) why = "replica file missing or truncated";
            if (why == null) out.add("current: " + e.key().id());
            else {
                out.add("rebuilding " + e.key().id() + ": " + why);
                rebuild.add(e.pattern());
            }
        }
        Map<PatternKey, Placement> placements = r.builder.planner().plan(rebuild, 0, p -> 0);
        for (KeyedPattern p : rebuild) {
            BuildOutcome o = r.builder.build(p, placements.get(p.key()));
            out.add(o.kind() + " " + p.key().id() + ": " + o.message());
        }
        return out;
    }
}
