package io.pdla.report;

import io.pdla.access.IoOp;
import io.pdla.access.TraceRecord;
import io.pdla.catalog.Catalog;
import io.pdla.catalog.ReplicaEntry;
import io.pdla.catalog.ReplicaState;
import io.pdla.catalog.TransientCatalogAccess;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Segment;
import io.pdla.replicator.daemon.ReplicaAdmin;
import io.pdla.simpfs.SimPfsDriver;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.simpfs.layout.SimLayouts;
import io.pdla.simpfs.layout.StripeMap;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A job's replicas as the report shows them: for each replica the first strips of its layout over the servers
 * (where sim-pfs's {@link StripeMap} puts them), and the share of the job's read bytes that the replicas cover,
 * which is what the redirect layer would serve from them on a later run of the same command.
 *
 * @param layouts       one per replica of the catalog, in catalog order
 * @param replicaBytes  read bytes of the job inside a usable replica's pattern (same command, process count, file)
 * @param originalBytes the job's other read bytes
 * @param basis         what the share is computed from, in words
 */
public record ReplicaView(List<LayoutView> layouts, long replicaBytes, long originalBytes, String basis) {
    /** Strips shown per replica: enough to see the rotation over every server. */
    public static final int STRIPS = 48;

    public record LayoutView(String title, String state, String layout, long bytes, List<String> servers, int hddServers,
                             List<Charts.Piece> pieces) {
    }

    /**
     * Reads the catalog at {@code catalogDir} and measures the job's reads ({@code records}, files by id in
     * {@code files}) against the usable replicas of {@code app}.
     */
    public static ReplicaView fromCatalog(Path catalogDir, AppIdentity app, Map<Integer, URI> files, List<TraceRecord> records)
            throws IOException {
        Catalog.openExisting(catalogDir).close();   // a clear error when there is no catalog there
        List<ReplicaEntry> entries = new ReplicaAdmin(new TransientCatalogAccess(catalogDir, 30_000)).list();
        return of(entries, app, files, records, "reads of this job inside the patterns of usable replicas in " + catalogDir.getFileName()
                + " (what redirect serves from replicas on a run of the same command)");
    }

    public static ReplicaView of(List<ReplicaEntry> entries, AppIdentity app, Map<Integer, URI> files, List<TraceRecord> records,
                                 String basis) {
        List<LayoutView> layouts = new ArrayList<>();
        for (ReplicaEntry e : entries) layouts.add(layout(e));
        long fromReplica = 0, fromOriginal = 0;
        for (TraceRecord r : records) {
            if (r.op() != IoOp.READ || r.length() == 0) continue;
            URI file = files.get(r.fileId());
            long best = 0;
            for (ReplicaEntry e : entries) {
                if (!usable(e.state()) || !e.key().app().equals(app) || !e.key().file().equals(file)) continue;
                if (e.key().rank() >= 0 && e.key().rank() != r.rank()) continue;
                long covered = 0;
                for (Segment s : e.pattern().geometry().map(r.offset(), r.length())) if (s.inPattern()) covered += s.length();
                best = Math.max(best, covered);
            }
            fromReplica += best;
            fromOriginal += r.length() - best;
        }
        return new ReplicaView(layouts, fromReplica, fromOriginal, basis);
    }

    private static boolean usable(ReplicaState s) {
        return s == ReplicaState.VALID || s == ReplicaState.DIRTY;
    }

    /**
     * The replica's first {@link #STRIPS} strips on the servers of its layout (8 HServers + 4 SServers unless it names
     * counts), for replicas on sim-pfs; other stores get the table row only.
     */
    static LayoutView layout(ReplicaEntry e) {
        io.pdla.storage.Layout core = e.layout();
        int h = core.serversKnown() ? core.hddServers() : SimPfsConfig.DEFAULT.hservers();
        int s = core.serversKnown() ? core.ssdServers() : SimPfsConfig.DEFAULT.sservers();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < h; i++) names.add("H" + i);
        for (int i = 0; i < s; i++) names.add("S" + i);
        List<Charts.Piece> pieces = new ArrayList<>();
        String title = "replica of " + Charts.shortName(e.key().file().getPath() == null ? e.key().file().toString() : e.key().file().getPath(), 40)
                + (e.key().rank() < 0 ? " (all ranks)" : " (rank " + e.key().rank() + ")");
        if (!SimPfsDriver.serves(e.replica())) {
            // only sim-pfs places strips on servers the report can name; HDFS blocks and POSIX files are not drawn
            return new LayoutView(title, e.state().name(), core + " on " + e.replica().getScheme() + ": no server map",
                    e.pattern().totalBytes(), names, h, pieces);
        }
        try {
            StripeMap map = StripeMap.of(SimLayouts.resolve(core, SimPfsConfig.DEFAULT.defaultLayoutParsed(), "replica " + e.replica()), h, s);
            long total = e.pattern().totalBytes(), step = 1 << 20;
            // in 1 MiB steps until enough strips are seen; a strip cut by a step boundary is joined again
            for (long off = 0; off < total && pieces.size() <= STRIPS; off += step) {
                map.map(off, Math.min(step, total - off), (server, local, len, fileOffset) -> {
                    Charts.Piece last = pieces.isEmpty() ? null : pieces.get(pieces.size() - 1);
                    if (last != null && last.server() == server && last.replicaOffset() + last.length() == fileOffset
                            && fileOffset % step == 0) {
                        pieces.set(pieces.size() - 1, new Charts.Piece(server, last.length() + len, last.replicaOffset()));
                    } else {
                        pieces.add(new Charts.Piece(server, len, fileOffset));
                    }
                });
            }
            while (pieces.size() > STRIPS) pieces.remove(pieces.size() - 1);
        } catch (RuntimeException ex) {
            // an unstriped layout (POSIX, HDFS) has no servers to draw: the table row says what it is
        }
        return new LayoutView(title, e.state().name(), core.toString() + (e.layoutNote().isEmpty() ? "" : " (not applied: " + e.layoutNote() + ")"),
                e.pattern().totalBytes(), names, h, pieces);
    }
}
