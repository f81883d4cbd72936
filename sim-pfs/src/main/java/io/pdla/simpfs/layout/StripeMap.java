package io.pdla.simpfs.layout;

import io.pdla.simpfs.config.ConfigException;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.storage.Layout;

import java.util.Arrays;

/**
 * The arithmetic of a (core) {@link Layout} on a concrete set of servers: which server holds a file byte and where
 * in that server's data object. Every distribution is one scheme: the file is cut into regions of
 * {@code region} bytes dealt round-robin to {@code groups} groups (one group and endless regions for 1-DH and
 * hybrid; one server per group for 1-DV), and inside a group the bytes are striped with a strip per server.
 * The mapping is a bijection, and for a fixed server the file offset grows with the local offset, which is
 * what lets sizes be derived from the per-server data objects alone.
 */
public final class StripeMap {
    private final Layout layout;
    private final int[] servers;       // global server ids, group after group
    private final int groups;
    private final int groupSize;
    private final long region;         // Long.MAX_VALUE when there is a single group
    private final long[] strip;        // per position inside a group
    private final long[] cumulative;   // strip start inside a row, per position
    private final long rowSize;
    private final boolean uniform;

    /** Sink for the pieces of an access, in file order. */
    @FunctionalInterface
    public interface PieceSink {
        void piece(int server, long localOffset, long length, long fileOffset);
    }

    private StripeMap(Layout layout, int[] servers, int groups, long region, long[] strip) {
        this.layout = layout;
        this.servers = servers;
        this.groups = groups;
        this.groupSize = servers.length / groups;
        this.region = region;
        this.strip = strip;
        this.cumulative = new long[strip.length + 1];
        for (int i = 0; i < strip.length; i++) cumulative[i + 1] = cumulative[i] + strip[i];
        this.rowSize = cumulative[strip.length];
        boolean u = true;
        for (long s : strip) u &= s == strip[0];
        this.uniform = u;
    }

    public static StripeMap of(Layout layout, SimPfsConfig config) {
        return of(layout, config.hservers(), config.sservers());
    }

    /**
     * The layout on {@code hservers} HServers and {@code sservers} SServers; its own server counts, if it
     * names any, are not read. Refuses (with the reason) what sim-pfs cannot place: see {@link SimLayouts#check}.
     */
    public static StripeMap of(Layout layout, int hservers, int sservers) {
        layout = SimLayouts.check(layout).withServers(0, 0);
        int[] candidates = switch (layout.space()) {
            case HDD -> range(0, hservers);
            case SSD -> range(hservers, hservers + sservers);
            case BOTH -> range(0, hservers + sservers);
        };
        String what = "layout " + layout;
        if (candidates.length == 0) {
            throw new ConfigException(what + ": the file system has no " + layout.space().label() + " servers ("
                    + hservers + " HServers, " + sservers + " SServers)");
        }
        int n = candidates.length;
        return switch (layout.distribution()) {
            case ONE_DH -> new StripeMap(layout, candidates, 1, Long.MAX_VALUE, filled(n, layout.stripe()));
            case ONE_DV -> new StripeMap(layout, candidates, n, layout.region(), filled(1, layout.region()));
            case TWO_D -> {
                int gs = layout.groupSize();
                if (gs > n || n % gs != 0) {
                    throw new ConfigException(what + ": group size " + gs + " must divide the " + n + " "
                            + layout.space().label() + " servers");
                }
                yield new StripeMap(layout, candidates, n / gs, layout.region(), filled(gs, layout.stripe()));
            }
            case HYBRID -> {
                if (hservers == 0 || sservers == 0) {
                    throw new ConfigException(what + ": a hybrid layout needs HServers and SServers (have "
                            + hservers + " and " + sservers + ")");
                }
                long[] s = new long[n];
                for (int i = 0; i < n; i++) s[i] = i < hservers ? layout.hddStripe() : layout.ssdStripe();
                yield new StripeMap(layout, candidates, 1, Long.MAX_VALUE, s);
            }
            case UNSTRIPED -> throw new AssertionError("refused by SimLayouts.check: " + what);
        };
    }

    private static int[] range(int from, int to) {
        int[] r = new int[Math.max(0, to - from)];
        for (int i = 0; i < r.length; i++) r[i] = from + i;
        return r;
    }

    private static long[] filled(int n, long v) {
        long[] a = new long[n];
        Arrays.fill(a, v);
        return a;
    }

    /**
     * The same layout starting on another server, as PVFS gives each file its own first server so that
     * small files and file-per-process runs spread: the servers (for 2-D, whole groups) are rotated by
     * {@code k}. Hybrid layouts are not rotated (their strips depend on the server class).
     */
    public StripeMap rotated(long k) {
        if (layout.distribution() == Layout.Distribution.HYBRID) return this;
        int step = (int) Math.floorMod(k, (long) groups) * groupSize;
        if (groups == 1) step = (int) Math.floorMod(k, (long) servers.length);
        if (step == 0) return this;
        int[] r = new int[servers.length];
        for (int i = 0; i < r.length; i++) r[i] = servers[(i + step) % servers.length];
        return new StripeMap(layout, r, groups, region, strip);
    }

    public Layout layout() {
        return layout;
    }

    /** Global ids of the servers this file may use. */
    public int[] servers() {
        return servers.clone();
    }

    /** Cuts {@code [offset, offset+length)} into per-server pieces, in file order. */
    public void map(long offset, long length, PieceSink sink) {
        long x = offset, remaining = length;
        while (remaining > 0) {
            long groupOff, regionLeft;
            int group;
            if (groups == 1) {
                group = 0;
                groupOff = x;
                regionLeft = Long.MAX_VALUE;
            } else {
                long r = x / region, within = x - r * region;
                group = (int) (r % groups);
                groupOff = (r / groups) * region + within;
                regionLeft = region - within;
            }
            long row = groupOff / rowSize, w = groupOff - row * rowSize;
            int pos;
            if (uniform) {
                pos = (int) (w / strip[0]);
            } else {
                pos = 0;
                while (cumulative[pos + 1] <= w) pos++;
            }
            long inStrip = w - cumulative[pos];
            long take = Math.min(remaining, Math.min(regionLeft, strip[pos] - inStrip));
            sink.piece(servers[group * groupSize + pos], row * strip[pos] + inStrip, take, x);
            x += take;
            remaining -= take;
        }
    }

    private int indexOf(int server) {
        for (int i = 0; i < servers.length; i++) if (servers[i] == server) return i;
        return -1;
    }

    /** The file offset of byte {@code local} of {@code server}'s data object. */
    public long fileOffset(int server, long local) {
        int idx = indexOf(server);
        if (idx < 0) throw new IllegalArgumentException("server " + server + " holds no data of layout " + layout);
        int group = idx / groupSize, pos = idx % groupSize;
        if (strip[pos] == 0) throw new IllegalArgumentException("server " + server + " has a zero strip in " + layout);
        long row = local / strip[pos];
        long groupOff = row * rowSize + cumulative[pos] + (local - row * strip[pos]);
        if (groups == 1) return groupOff;
        long regionInGroup = groupOff / region;
        return (regionInGroup * groups + group) * region + (groupOff - regionInGroup * region);
    }

    /** File size implied by one server's data object of {@code localSize} bytes (0 when empty). */
    public long fileEnd(int server, long localSize) {
        return localSize <= 0 ? 0 : fileOffset(server, localSize - 1) + 1;
    }

    /** How many bytes of {@code server}'s data object lie below file offset {@code fileSize}. */
    public long localSize(int server, long fileSize) {
        int idx = indexOf(server);
        if (idx < 0 || strip[idx % groupSize] == 0 || fileSize <= 0) return 0;
        // fileOffset is increasing in the local offset: binary search the last local byte below fileSize.
        long lo = 0, hi = fileSize;    // the answer is at most fileSize
        while (lo < hi) {
            long mid = lo + (hi - lo) / 2;
            if (fileOffset(server, mid) < fileSize) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
}
