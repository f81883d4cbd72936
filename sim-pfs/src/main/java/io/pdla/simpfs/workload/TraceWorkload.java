package io.pdla.simpfs.workload;

import io.pdla.access.IoOp;
import io.pdla.access.TraceRecord;
import io.pdla.simpfs.config.ConfigException;
import io.pdla.storage.Layout;
import io.pdla.simpfs.timing.Request;
import io.pdla.simpfs.timing.RequestStream;
import io.pdla.simpfs.timing.Workload;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * Replays traces: one {@code Iterator<TraceRecord>} per rank (as the tracer will write them). Consecutive
 * data records of one call (same file, op and times: the tracer writes one record per extent) become one
 * request; a collective call is preceded by a barrier, because every rank enters a collective together;
 * metadata records are skipped. Recorded times are ignored: the engine computes its own.
 */
public final class TraceWorkload implements Workload {
    private final String description;
    private final int ranks;
    private final IntFunction<Iterator<TraceRecord>> traces;
    private final Map<Integer, Integer> fileIndex = new TreeMap<>();
    private final List<Layout> layouts = new ArrayList<>();

    /**
     * @param traces  opens rank r's trace (called once per rank per replay)
     * @param layouts the layout of every file id that appears in the traces
     */
    public TraceWorkload(String description, int ranks, IntFunction<Iterator<TraceRecord>> traces, Map<Integer, Layout> layouts) {
        if (ranks < 1) throw new ConfigException("trace replay needs at least one rank");
        this.description = description;
        this.ranks = ranks;
        this.traces = traces;
        new TreeMap<>(layouts).forEach((id, layout) -> {
            fileIndex.put(id, this.layouts.size());
            this.layouts.add(layout);
        });
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
        return List.copyOf(layouts);
    }

    @Override
    public RequestStream stream(int rank) {
        Iterator<TraceRecord> it = traces.apply(rank);
        return new RequestStream() {
            TraceRecord lookahead;
            TraceRecord pendingCollective;

            private TraceRecord nextData() {
                while (lookahead != null || it.hasNext()) {
                    TraceRecord r = lookahead != null ? lookahead : it.next();
                    lookahead = null;
                    if (r.op().movesData()) return r;
                }
                return null;
            }

            @Override
            public boolean next(Request into) {
                TraceRecord first = pendingCollective != null ? pendingCollective : nextData();
                if (first == null) return false;
                if (first.collective() && pendingCollective == null) {
                    pendingCollective = first;
                    into.barrier();
                    return true;
                }
                pendingCollective = null;
                Integer file = fileIndex.get(first.fileId());
                if (file == null) {
                    throw new ConfigException("trace of rank " + rank + " uses file id " + first.fileId() + " that has no layout");
                }
                into.set(first.op() == IoOp.WRITE ? Request.Kind.WRITE : Request.Kind.READ, file).add(first.offset(), first.length());
                while (it.hasNext()) {
                    TraceRecord r = it.next();
                    if (r.op() == first.op() && r.fileId() == first.fileId() && r.startNanos() == first.startNanos()
                            && r.endNanos() == first.endNanos() && r.collective() == first.collective()) {
                        into.add(r.offset(), r.length());
                    } else {
                        lookahead = r;
                        break;
                    }
                }
                return true;
            }
        };
    }
}
