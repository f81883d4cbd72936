package io.pdla.storage;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * How a file's bytes are spread over storage servers: the one layout vocabulary of pdla. The cost model
 * prices distributions, the replicator plans replicas in them, the collective-I/O engine reads
 * {@link #stripeSize()} and {@link #serverCount()} for stripe-aware file domains, and each storage driver
 * translates a layout into its own terms behind the SPI (sim-pfs: its directory layouts; HDFS: block size
 * and storage policy; POSIX: none, it reports {@link Distribution#UNSTRIPED}).
 *
 * <p>The canonical text form, which {@link #parse} reads and {@link #toString()} writes:
 * <pre>
 *   unstriped[,stripe=4k]
 *   1dh[,stripe=64k][,space=hdd|ssd|both]
 *   1dv[,region=64m][,space=...]
 *   2d:G[,stripe=64k][,region=64m][,space=...]      G = servers per group
 *   hybrid[,sh=16k,ss=112k]                          strip per HServer and per SServer
 * </pre>
 * each optionally followed by {@code hservers=N} and {@code sservers=N}, the numbers of HDD and SSD servers
 * the file is spread over. A plan (a layout not yet applied by a store) may leave them out, meaning "every
 * server of the class"; a layout a driver reports names them. Sizes take binary {@code k}, {@code m},
 * {@code g}, {@code t} suffixes (an optional {@code iB} or {@code B} after them too).
 */
public final class Layout {
    /** How the file is cut over its servers (PDLA's names for OrangeFS-style distributions). */
    public enum Distribution {
        /** One server (or one file system that stripes behind our back, such as a local disk). */
        UNSTRIPED("unstriped", "unstriped"),
        /** Simple striping over every server of the class, {@code stripe} bytes per server. */
        ONE_DH("1-DH", "1dh"),
        /** The file is cut into regions of {@code region} bytes dealt round-robin to the servers. */
        ONE_DV("1-DV", "1dv"),
        /** Regions dealt round-robin to groups of {@code groupSize} servers, striped inside a group. */
        TWO_D("2-D", "2d"),
        /** Striping over HDD and SSD servers with strip {@code sh} per HServer and {@code ss} per SServer. */
        HYBRID("hybrid", "hybrid");

        private final String label;
        private final String token;

        Distribution(String label, String token) {
            this.label = label;
            this.token = token;
        }

        /** The name in the papers and reports: {@code 1-DH}, {@code 1-DV}, {@code 2-D}, {@code hybrid}, {@code unstriped}. */
        public String label() {
            return label;
        }

        /** Accepts the label, the text-form token or the enum name, in any case. */
        public static Distribution parse(String text) {
            String t = text.trim().toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
            for (Distribution d : values()) {
                if (t.equals(d.token) || t.equals(d.name().toLowerCase(Locale.ROOT).replace("_", ""))) return d;
            }
            throw new IllegalArgumentException("layout distribution '" + text + "' is not one of 1dh, 1dv, 2d, hybrid, unstriped");
        }
    }

    /** Which servers hold the file's bytes. */
    public enum ServerClass {
        HDD, SSD, BOTH;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static ServerClass parse(String text) {
            return switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "hdd", "hservers", "h" -> HDD;
                case "ssd", "sservers", "s" -> SSD;
                case "both", "hybrid", "hdd+ssd" -> BOTH;
                default -> throw new IllegalArgumentException("server class '" + text + "' is not one of hdd, ssd, both");
            };
        }
    }

    /** The stripe a plan gets when it names none: OrangeFS's default simple stripe. */
    public static final long DEFAULT_STRIPE = 64 * 1024;
    /**
     * The stripe size an unstriped file reports when its store cannot say its block size: 4 KiB, the page
     * and block size of the usual local file systems.
     */
    public static final long DEFAULT_BLOCK = 4096;
    /** 1-DH over the HDD servers with a 64 KiB stripe: what {@link #parse} fills unset fields from. */
    public static final Layout DEFAULT = oneDH(ServerClass.HDD, DEFAULT_STRIPE);

    private final Distribution distribution;
    private final ServerClass space;
    private final long stripe;
    private final int groupSize;
    private final long region;
    private final long hddStripe;
    private final long ssdStripe;
    private final int hddServers;
    private final int ssdServers;

    private Layout(Distribution distribution, ServerClass space, long stripe, int groupSize, long region,
                   long hddStripe, long ssdStripe, int hddServers, int ssdServers) {
        this.distribution = Objects.requireNonNull(distribution, "layout needs a distribution");
        this.space = distribution == Distribution.HYBRID ? ServerClass.BOTH : Objects.requireNonNull(space, "layout needs a server class");
        this.stripe = stripe;
        this.groupSize = distribution == Distribution.TWO_D ? groupSize : 1;
        this.region = region;
        this.hddStripe = distribution == Distribution.HYBRID ? hddStripe : 0;
        this.ssdStripe = distribution == Distribution.HYBRID ? ssdStripe : 0;
        this.hddServers = hddServers;
        this.ssdServers = ssdServers;
        String what = "layout " + distribution.label();
        if (stripe <= 0) throw new IllegalArgumentException(what + ": stripe must be > 0, was " + stripe);
        if (region < 0) throw new IllegalArgumentException(what + ": region must be >= 0 (0 = the store's default), was " + region);
        if (this.groupSize < 1) throw new IllegalArgumentException(what + ": group size must be >= 1, was " + groupSize);
        if (hddServers < 0 || ssdServers < 0) {
            throw new IllegalArgumentException(what + ": server counts must be >= 0, were hservers=" + hddServers + " sservers=" + ssdServers);
        }
        if (distribution == Distribution.HYBRID && (hddStripe < 0 || ssdStripe < 0 || hddStripe + ssdStripe == 0)) {
            throw new IllegalArgumentException(what + ": strips sh=" + hddStripe + " and ss=" + ssdStripe + " must be >= 0 and not both 0");
        }
    }

    public static Layout unstriped(long blockSize) {
        return new Layout(Distribution.UNSTRIPED, ServerClass.HDD, blockSize, 1, 0, 0, 0, 0, 0);
    }

    public static Layout oneDH(ServerClass space, long stripe) {
        return new Layout(Distribution.ONE_DH, space, stripe, 1, 0, 0, 0, 0, 0);
    }

    /** {@code region} 0 leaves the region size to the store. */
    public static Layout oneDV(ServerClass space, long region) {
        return new Layout(Distribution.ONE_DV, space, DEFAULT_STRIPE, 1, region, 0, 0, 0, 0);
    }

    /** {@code groupSize} is servers per group (the cost model's g groups of n/g servers: n/g here). */
    public static Layout twoD(ServerClass space, int groupSize, long stripe, long region) {
        return new Layout(Distribution.TWO_D, space, stripe, groupSize, region, 0, 0, 0, 0);
    }

    public static Layout hybrid(long hddStripe, long ssdStripe) {
        return new Layout(Distribution.HYBRID, ServerClass.BOTH, Math.max(1, Math.max(hddStripe, ssdStripe)), 1, 0,
                hddStripe, ssdStripe, 0, 0);
    }

    /** The same layout, spread over {@code hdd} HDD servers and {@code ssd} SSD servers (what a store reports). */
    public Layout withServers(int hdd, int ssd) {
        return new Layout(distribution, space, stripe, groupSize, region, hddStripe, ssdStripe, hdd, ssd);
    }

    public Layout withRegion(long newRegion) {
        return new Layout(distribution, space, stripe, groupSize, newRegion, hddStripe, ssdStripe, hddServers, ssdServers);
    }

    public Layout withStripe(long newStripe) {
        return new Layout(distribution, space, newStripe, groupSize, region, hddStripe, ssdStripe, hddServers, ssdServers);
    }

    public Layout withSpace(ServerClass newSpace) {
        return new Layout(distribution, newSpace, stripe, groupSize, region, hddStripe, ssdStripe, hddServers, ssdServers);
    }

    public Distribution distribution() {
        return distribution;
    }

    /** Which servers hold the bytes; always {@link ServerClass#BOTH} for a hybrid layout. */
    public ServerClass space() {
        return space;
    }

    /** Servers per 2-D group; 1 for the other distributions. */
    public int groupSize() {
        return groupSize;
    }

    /** Bytes of a 1-DV or 2-D region (0: the store's default); 0 for the other distributions. */
    public long region() {
        return region;
    }

    /** Strip per HServer of a hybrid layout (0: SServers only); 0 otherwise. */
    public long hddStripe() {
        return hddStripe;
    }

    /** Strip per SServer of a hybrid layout (0: HServers only); 0 otherwise. */
    public long ssdStripe() {
        return ssdStripe;
    }

    public int hddServers() {
        return hddServers;
    }

    public int ssdServers() {
        return ssdServers;
    }

    /** Whether the layout names its server counts (a store's report does; a plan may not). */
    public boolean serversKnown() {
        return hddServers + ssdServers > 0;
    }

    /** The per-server strip as the layout names it ({@code stripe=}), whatever the distribution. */
    public long stripe() {
        return stripe;
    }

    /**
     * The unit in which consecutive file bytes change server, which is what lock and file-domain
     * boundaries should align to: the strip for 1-DH and 2-D; the region for 1-DV (a region lives on one
     * server; the strip when the region is left to the store); the block size of an unstriped file; for
     * hybrid the mean strip of one row, {@code ceil((h*sh + s*ss) / (h + s))}, so that
     * {@code stripeSize() * serverCount()} is one full round over the servers (the strips themselves
     * differ per class: {@link #hddStripe()}, {@link #ssdStripe()}).
     */
    public long stripeSize() {
        return switch (distribution) {
            case ONE_DV -> region > 0 ? region : stripe;
            case HYBRID -> {
                int h = hddServers, s = ssdServers;
                if (h + s == 0) yield Math.max(hddStripe, ssdStripe);
                long row = h * hddStripe + s * ssdStripe;
                int used = (hddStripe > 0 ? h : 0) + (ssdStripe > 0 ? s : 0);
                yield Math.max(1, (row + used - 1) / Math.max(1, used));
            }
            default -> stripe;
        };
    }

    /**
     * How many servers the file's bytes are spread over: 1 for an unstriped file; the servers of the
     * layout's class otherwise (a hybrid layout does not count a class whose strip is 0). A plan that names
     * no server counts answers 1, the one thing known for certain.
     */
    public int serverCount() {
        if (distribution == Distribution.UNSTRIPED || !serversKnown()) return 1;
        int n = switch (space) {
            case HDD -> hddServers;
            case SSD -> ssdServers;
            case BOTH -> distribution == Distribution.HYBRID
                    ? (hddStripe > 0 ? hddServers : 0) + (ssdStripe > 0 ? ssdServers : 0)
                    : hddServers + ssdServers;
        };
        return Math.max(1, n);
    }

    /** Reads the canonical text form, filling what it leaves out from {@link #DEFAULT}. */
    public static Layout parse(String text) {
        return parse(text, DEFAULT);
    }

    /**
     * Reads the canonical text form; settings it leaves out come from {@code defaults} (for example a
     * directory's layout). Errors are {@link IllegalArgumentException}s quoting the text and naming the part
     * that is wrong.
     */
    public static Layout parse(String text, Layout defaults) {
        if (text == null || text.isBlank()) throw new IllegalArgumentException("empty layout text");
        try {
            return parseChecked(text, defaults);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("layout '" + text + "': " + e.getMessage(), e);
        }
    }

    private static Layout parseChecked(String text, Layout defaults) {
        String[] parts = text.trim().split(",");
        String head = parts[0].trim();
        String kind = head;
        Map<String, String> kv = new LinkedHashMap<>();
        int colon = head.indexOf(':');
        if (colon >= 0) {
            kind = head.substring(0, colon);
            kv.put("group", head.substring(colon + 1).trim());
        }
        Distribution d = Distribution.parse(kind);
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].trim();
            int eq = p.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("setting '" + p + "' is not key=value");
            String key = p.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            if (kv.put(key, p.substring(eq + 1).trim()) != null) throw new IllegalArgumentException("setting '" + key + "' given twice");
        }
        ServerClass space = defaults.space;
        long stripe = defaults.stripe, region = defaults.region, sh = defaults.hddStripe, ss = defaults.ssdStripe;
        int group = defaults.groupSize, hservers = defaults.hddServers, sservers = defaults.ssdServers;
        for (Map.Entry<String, String> e : kv.entrySet()) {
            String v = e.getValue();
            switch (e.getKey()) {
                case "stripe" -> stripe = parseSize(v, "stripe");
                case "space", "class" -> space = ServerClass.parse(v);
                case "region" -> region = parseSize(v, "region");
                case "group" -> group = parseCount(v, "group size");
                case "sh" -> sh = parseSize(v, "sh");
                case "ss" -> ss = parseSize(v, "ss");
                case "hservers" -> hservers = parseCount(v, "hservers");
                case "sservers" -> sservers = parseCount(v, "sservers");
                default -> throw new IllegalArgumentException("unknown setting '" + e.getKey()
                        + "' (known: stripe, space, region, group, sh, ss, hservers, sservers)");
            }
        }
        return switch (d) {
            case UNSTRIPED -> unstriped(kv.containsKey("stripe") ? stripe : DEFAULT_BLOCK).withServers(hservers, sservers);
            case ONE_DH -> oneDH(space, stripe).withServers(hservers, sservers);
            case ONE_DV -> new Layout(d, space, stripe, 1, region, 0, 0, hservers, sservers);
            case TWO_D -> {
                if (!kv.containsKey("group")) throw new IllegalArgumentException("a 2-D layout needs a group size, as in 2d:4");
                yield twoD(space, group, stripe, region).withServers(hservers, sservers);
            }
            case HYBRID -> {
                if (!kv.containsKey("sh") && !kv.containsKey("ss") && defaults.distribution != Distribution.HYBRID) {
                    sh = stripe;
                    ss = stripe;
                }
                yield hybrid(sh, ss).withServers(hservers, sservers);
            }
        };
    }

    private static long parseSize(String text, String key) {
        try {
            return io.pdla.size.ByteSize.parse(text, key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + "='" + text + "' is not a size (examples: 65536, 64k, 512m, 1g)", e);
        }
    }

    private static int parseCount(String text, String key) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " '" + text + "' is not a whole number");
        }
    }

    /** Sizes are written as plain byte counts, the form every reader of the text (and ROMIO's hints) takes. */
    private static String size(long bytes) {
        return Long.toString(bytes);
    }

    /** The canonical text form; {@link #parse} reads it back to an equal layout. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        switch (distribution) {
            case UNSTRIPED -> b.append("unstriped,stripe=").append(size(stripe));
            case ONE_DH -> b.append("1dh,stripe=").append(size(stripe)).append(",space=").append(space.label());
            case ONE_DV -> {
                b.append("1dv");
                if (stripe != DEFAULT_STRIPE) b.append(",stripe=").append(size(stripe));
                b.append(",region=").append(size(region)).append(",space=").append(space.label());
            }
            case TWO_D -> b.append("2d:").append(groupSize).append(",stripe=").append(size(stripe))
                    .append(",region=").append(size(region)).append(",space=").append(space.label());
            case HYBRID -> b.append("hybrid,sh=").append(size(hddStripe)).append(",ss=").append(size(ssdStripe));
        }
        if (hddServers > 0) b.append(",hservers=").append(hddServers);
        if (ssdServers > 0) b.append(",sservers=").append(ssdServers);
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Layout l && distribution == l.distribution && space == l.space && stripe == l.stripe
                && groupSize == l.groupSize && region == l.region && hddStripe == l.hddStripe && ssdStripe == l.ssdStripe
                && hddServers == l.hddServers && ssdServers == l.ssdServers;
    }

    @Override
    public int hashCode() {
        return Objects.hash(distribution, space, stripe, groupSize, region, hddStripe, ssdStripe, hddServers, ssdServers);
    }
}
