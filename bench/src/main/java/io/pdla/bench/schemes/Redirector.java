package io.pdla.bench.schemes;

import io.pdla.access.ExtentList;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.KeyedPattern;
import io.pdla.pattern.PatternKey;
import io.pdla.pattern.Geometry;
import io.pdla.redirect.ExtentRouter;

import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sends a traced request to the workload's files the way the redirect interceptor reads: each rank asks the
 * replicas that serve it ({@link PatternKey#serves}, its own before the global ones) through redirect's
 * {@link ExtentRouter}; a replica's piece goes to its replica file at the router's replica offset, the rest to the
 * original's workload file.
 */
public final class Redirector {
    /** One replica file of the workload: the pattern it holds and its index among the workload's files. */
    public record Replica(KeyedPattern pattern, int fileIndex) {
    }

    private record Route(ExtentRouter router, int[] fileIndex) {
    }

    private final AppIdentity app;
    private final Map<Integer, URI> files;
    private final Map<Integer, Integer> originalIndex;
    private final List<Replica> replicas;
    private final Map<Long, Route> routes = new ConcurrentHashMap<>();

    /**
     * @param app           the traced application (whose ranks the replicas serve)
     * @param files         original file id -> its URI, as pattern keys name it
     * @param originalIndex original file id -> its workload file index
     * @param replicas      the replica files
     */
    public Redirector(AppIdentity app, Map<Integer, URI> files, Map<Integer, Integer> originalIndex, List<Replica> replicas) {
        this.app = app;
        this.files = Map.copyOf(files);
        this.originalIndex = Map.copyOf(originalIndex);
        this.replicas = List.copyOf(replicas);
    }

    public int originalIndex(int fileId) {
        Integer i = originalIndex.get(fileId);
        if (i == null) throw new IllegalArgumentException("file id " + fileId + " is not a file of this workload " + originalIndex.keySet());
        return i;
    }

    /** The replicas rank {@code rank} asks for file {@code fileId}, in the order it asks them. */
    public List<Replica> replicasOf(int rank, int fileId) {
        URI uri = files.get(fileId);
        List<Replica> out = new ArrayList<>();
        for (Replica r : replicas) if (r.pattern().key().file().equals(uri) && r.pattern().key().serves(app, rank)) out.add(r);
        out.sort(Comparator.comparing(r -> r.pattern().key(), ExtentRouter.SERVING_ORDER));
        return out;
    }

    /** The pieces of one request, in call order. */
    public List<Piece> redirect(int rank, int fileId, long offset, long length) {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("rank " + rank + ": request [" + offset + "+" + length + ") is negative");
        }
        int orig = originalIndex(fileId);
        List<Piece> out = new ArrayList<>(2);
        if (length == 0) return out;
        Route route = routes.computeIfAbsent(((long) rank << 32) | (fileId & 0xffffffffL), k -> route(rank, fileId));
        for (ExtentRouter.Piece p : route.router().route(ExtentList.of(offset, length))) {
            out.add(p.fromOriginal() ? new Piece(orig, p.offset(), p.length())
                    : new Piece(route.fileIndex()[p.replica()], p.replicaOffset(), p.length()));
        }
        return out;
    }

    private Route route(int rank, int fileId) {
        List<Replica> mine = replicasOf(rank, fileId);
        List<Geometry> g = new ArrayList<>(mine.size());
        int[] index = new int[mine.size()];
        for (int i = 0; i < mine.size(); i++) {
            g.add(mine.get(i).pattern().geometry());
            index[i] = mine.get(i).fileIndex();
        }
        return new Route(new ExtentRouter(g), index);
    }
}
