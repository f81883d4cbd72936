package io.pdla.bench.schemes;

import io.pdla.access.TraceRecord;
import io.pdla.storage.Layout;
import io.pdla.simpfs.timing.Request;
import io.pdla.simpfs.timing.RequestStream;
import io.pdla.simpfs.timing.Workload;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Replays per-rank traces through a {@link Redirector}: every data record becomes one engine request per target
 * file (the original, or one replica file), issued one after the other in the order the pieces start in the
 * original request (blocking I/O, as the redirect layer issues them); a collective record is preceded by a
 * barrier. Metadata records are skipped and recorded times ignored.
 */
public final class RemappedWorkload implements Workload {
    private final String description;
    private final int ranks;
    private final IntFunction<Iterator<TraceRecord>> traces;
    private final List<Layout> files;
    private final Redirector redirector;

    public RemappedWorkload(String description, int ranks, IntFunction<Iterator<TraceRecord>> traces, List<Layout> files,
                            Redirector redirector) {
        if (ranks < 1) throw new IllegalArgumentException("workload " + description + " needs at least one rank, was " + ranks);
        this.description = description;
        this.ranks = ranks;
        this.traces = traces;
        this.files = List.copyOf(files);
        this.redirector = redirector;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public int ranks() {
        return ranks;
    }

    @Override
    public List<Layout> files() {
        return files;
    }

    @Override
    public RequestStream stream(int rank) {
        Iterator<TraceRecord> it = traces.apply(rank);
        ArrayDeque<Object[]> pending = new ArrayDeque<>();
        return into -> {
            while (pending.isEmpty()) {
                if (!it.hasNext()) return false;
                TraceRecord r = it.next();
                if (!r.op().movesData()) continue;
                if (r.rank() != rank) {
                    throw new IllegalArgumentException("trace of rank " + rank + " holds a record of rank " + r.rank() + ": " + r);
                }
                Request.Kind kind = r.op() == io.pdla.access.IoOp.READ ? Request.Kind.READ : Request.Kind.WRITE;
                if (r.collective()) pending.add(new Object[]{Request.Kind.BARRIER});
                Map<Integer, List<Piece>> byFile = new LinkedHashMap<>();
                for (Piece p : redirector.redirect(rank, r.fileId(), r.offset(), r.length())) {
                    byFile.computeIfAbsent(p.fileIndex(), k -> new ArrayList<>()).add(p);
                }
                for (Map.Entry<Integer, List<Piece>> e : byFile.entrySet()) pending.add(new Object[]{kind, e.getKey(), e.getValue()});
            }
            Object[] next = pending.poll();
            if (next[0] == Request.Kind.BARRIER) {
                into.barrier();
                return true;
            }
            into.set((Request.Kind) next[0], (Integer) next[1]);
            @SuppressWarnings("unchecked") List<Piece> pieces = (List<Piece>) next[2];
            for (Piece p : pieces) into.add(p.offset(), p.length());
            return true;
        };
    }
}
