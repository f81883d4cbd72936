package io.pdla.patterns.rootcause;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * IOMiner's Algorithm 2 (sweep line over file start and end points), O(n log n).
 *
 * <p>Points are sorted by time. At each time all starts are pushed on a heap; the file that currently "owns"
 * the sweep line keeps it until its own end, then the active file that reaches furthest takes over from that
 * moment (the paper's "first = heap.peek(); first.start = p.end"). Choosing the furthest-reaching file is the
 * greedy interval cover, so the owners are a minimum set of files covering the critical path, which is what
 * the paper defines as critical files; an owner's share is its exclusive time. Ending files are dropped from
 * the heap lazily, and the owner is chosen only after every start at the same instant is in, so ties at a
 * component's first instant pick the longest file.
 */
public final class SweepLine {
    private SweepLine() {
    }

    public static CriticalPath run(List<FileIoStats> files) {
        int n = files.size();
        if (n == 0) return new CriticalPath(List.of(), 0, 0, 0);
        double[] start = new double[n], end = new double[n];
        double first = Double.POSITIVE_INFINITY, last = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            start[i] = files.get(i).start();
            end[i] = files.get(i).end();
            first = Math.min(first, start[i]);
            last = Math.max(last, end[i]);
        }
        // event times: every start and every end; only starts carry a file (ends are handled lazily)
        int[] byStart = PrimitiveSort.order(start);
        double[] ends = end.clone();
        Arrays.sort(ends);
        PrimitiveSort.MaxHeap active = new PrimitiveSort.MaxHeap(end);
        List<Share> shares = new ArrayList<>();
        int owner = -1;
        double ownerFrom = 0, total = 0;
        int si = 0, ei = 0;
        while (si < n || ei < n) {
            double t = si < n && start[byStart[si]] <= (ei < n ? ends[ei] : Double.POSITIVE_INFINITY)
                    ? start[byStart[si]] : ends[ei];
            while (si < n && start[byStart[si]] == t) active.add(byStart[si++]);
            while (ei < n && ends[ei] == t) ei++;
            if (owner >= 0 && end[owner] <= t) {
                shares.add(new Share(files.get(owner).file(), ownerFrom, end[owner]));
                total += end[owner] - ownerFrom;
                owner = -1;
            }
            if (owner < 0) {
                while (!active.isEmpty() && end[active.peek()] <= t) active.poll();
                if (!active.isEmpty()) {
                    owner = active.poll();
                    ownerFrom = t;
                }
            }
        }
        return new CriticalPath(shares, total, first, last);
    }
}
