package io.pdla.costmodel;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the cost model needs to know about a pattern: the number of processes {@code p}, processes per client
 * node {@code m} [V, S1 Table 1] and the request sizes with how many concurrent rounds use each size.
 * Offsets do not enter the published formulas, so a pattern reduces to this multiset of sizes; later modules
 * (pattern analyzer, replicator) build one either from their signatures ({@link #of}) or from raw traced
 * requests ({@link #fromRequests}).
 *
 * <p>{@code requestAligned} [R, our extension, not in the papers]: the replica is read in request-aligned windows,
 * so each batch's {@code size} is the size of a window-aligned request of the replica (not the application's
 * request size) and a layout whose stripe equals that size puts every request whole on one server. It makes the
 * request-aligned hybrid candidate ({@code HybridCostModel#requestAlignedSeconds}) available to the benefit
 * calculation; false (every constructor and factory without the argument) prices the pattern exactly as the papers do.
 */
public record AccessPattern(int processes, int processesPerNode, List<RequestBatch> batches, boolean requestAligned) {

    public AccessPattern {
        Checks.positive("processes (p)", processes);
        Checks.positive("processes per client node (m)", processesPerNode);
        Objects.requireNonNull(batches, "batches");
        if (batches.isEmpty()) {
            throw new IllegalArgumentException("batches must not be empty, was " + batches);
        }
        batches = List.copyOf(batches);
    }

    /** An ordinary pattern: {@code requestAligned} false. */
    public AccessPattern(int processes, int processesPerNode, List<RequestBatch> batches) {
        this(processes, processesPerNode, batches, false);
    }

    /** The same pattern with {@code requestAligned} set as given. */
    public AccessPattern withRequestAligned(boolean aligned) {
        return new AccessPattern(processes, processesPerNode, batches, aligned);
    }

    /** A pattern of one request size: {@code count} rounds of p concurrent {@code size}-byte requests. */
    public static AccessPattern of(int processes, int processesPerNode, long size, long count, Op op) {
        return new AccessPattern(processes, processesPerNode, List.of(new RequestBatch(size, count, op)));
    }

    /**
     * Groups traced requests of all {@code p} processes by (size, op). [R] The number of rounds of a size is
     * {@code ceil(requests of that size / p)}: the model assumes the processes issue their requests in lock-step.
     */
    public static AccessPattern fromRequests(int processes, int processesPerNode, Collection<Request> requests) {
        Checks.positive("processes (p)", processes);
        Map<String, long[]> counts = new TreeMap<>();
        Map<String, RequestBatch> shapes = new TreeMap<>();
        for (Request r : requests) {
            String key = r.op() + ":" + r.size();
            counts.computeIfAbsent(key, k -> new long[1])[0]++;
            shapes.putIfAbsent(key, new RequestBatch(r.size(), 1, r.op()));
        }
        List<RequestBatch> batches = new ArrayList<>();
        for (Map.Entry<String, long[]> e : counts.entrySet()) {
            RequestBatch shape = shapes.get(e.getKey());
            long rounds = (e.getValue()[0] + processes - 1) / processes;
            batches.add(new RequestBatch(shape.size(), rounds, shape.op()));
        }
        return new AccessPattern(processes, processesPerNode, batches);
    }

    /** Bytes moved by the whole pattern: p * size * count summed over the batches. */
    public long totalBytes() {
        long total = 0;
        for (RequestBatch b : batches) {
            total = Math.addExact(total, Math.multiplyExact(Math.multiplyExact((long) processes, b.size()), b.count()));
        }
        return total;
    }
}
