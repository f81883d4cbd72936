package io.pdla.simpfs.layout;

import io.pdla.size.ByteSize;
import io.pdla.simpfs.config.ConfigException;
import io.pdla.storage.StorageLayout;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A file's distribution over servers. {@code stripe} is the strip per server for 1-DH and inside a 2-D group;
 * {@code groupSize} is the number of servers per 2-D group; {@code region} is the size of one process region
 * for 1-DV and 2-D; {@code sh}/{@code ss} are the per-server strips on HServers/SServers of a hybrid layout.
 * Fields that a distribution does not use are kept but ignored.
 */
public record Layout(Distribution distribution, ServerClass space, long stripe, int groupSize, long region,
                     long sh, long ss) {
    public static final long DEFAULT_STRIPE = 64 * 1024;
    public static final long DEFAULT_REGION = 64L * 1024 * 1024;

    public Layout {
        if (distribution == null) throw new ConfigException("layout needs a distribution");
        if (space == null) throw new ConfigException("layout needs a server class");
        if (stripe <= 0) throw new ConfigException("layout " + distribution.label() + ": stripe must be > 0, was " + stripe);
        if (region <= 0) throw new ConfigException("layout " + distribution.label() + ": region must be > 0, was " + region);
        if (distribution == Distribution.TWO_D && groupSize < 1) {
            throw new ConfigException("layout 2-D: group size must be >= 1, was " + groupSize);
        }
        if (distribution == Distribution.HYBRID) {
            if (space != ServerClass.BOTH) throw new ConfigException("layout hybrid stripes over HDD and SSD servers; space must be both, was " + space.label());
            if (sh < 0 || ss < 0 || sh + ss == 0) {
                throw new ConfigException("layout hybrid: strips sh=" + sh + " and ss=" + ss + " must be >= 0 and not both 0");
            }
        }
    }

    public static Layout oneDH(ServerClass space, long stripe) {
        return new Layout(Distribution.ONE_DH, space, stripe, 1, DEFAULT_REGION, 0, 0);
    }

    public static Layout oneDV(ServerClass space, long region) {
        return new Layout(Distribution.ONE_DV, space, DEFAULT_STRIPE, 1, region, 0, 0);
    }

    public static Layout twoD(ServerClass space, int groupSize, long stripe, long region) {
        return new Layout(Distribution.TWO_D, space, stripe, groupSize, region, 0, 0);
    }

    public static Layout hybrid(long sh, long ss) {
        return new Layout(Distribution.HYBRID, ServerClass.BOTH, Math.max(1, Math.max(sh, ss)), 1, DEFAULT_REGION, sh, ss);
    }

    public Layout withRegion(long newRegion) {
        return new Layout(distribution, space, stripe, groupSize, newRegion, sh, ss);
    }

    public Layout withSpace(ServerClass newSpace) {
        return new Layout(distribution, newSpace, stripe, groupSize, region, sh, ss);
    }

    public Layout withStripe(long newStripe) {
        return new Layout(distribution, space, newStripe, groupSize, region, sh, ss);
    }

    /**
     * Parses {@code 1dh}, {@code 1dv}, {@code 2d:GROUPSIZE} or {@code hybrid}, optionally followed by
     * {@code ,key=value} settings: {@code stripe}, {@code space} (hdd|ssd|both), {@code region}, {@code group},
     * {@code sh}, {@code ss}. Sizes follow core's {@link ByteSize} grammar (64k, 1m, 65536). {@code where} names the source in error messages.
     */
    public static Layout parse(String spec, Layout defaults, String where) {
        if (spec == null || spec.isBlank()) throw new ConfigException(where + ": empty layout specification");
        String[] parts = spec.trim().split(",");
        String head = parts[0].trim();
        String kindText = head;
        Integer group = null;
        int colon = head.indexOf(':');
        if (colon >= 0) {
            kindText = head.substring(0, colon);
            group = parseInt(head.substring(colon + 1), where + " (group size in '" + head + "')");
        }
        Distribution d = Distribution.parse(kindText, where);
        Map<String, String> kv = new LinkedHashMap<>();
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].trim();
            int eq = p.indexOf('=');
            if (eq <= 0) throw new ConfigException(where + ": layout setting '" + p + "' is not key=value");
            kv.put(p.substring(0, eq).trim().toLowerCase(java.util.Locale.ROOT), p.substring(eq + 1).trim());
        }
        if (group != null) kv.putIfAbsent("group", group.toString());
        return fromSettings(d, kv, defaults, where);
    }

    private static Layout fromSettings(Distribution d, Map<String, String> kv, Layout defaults, String where) {
        ServerClass space = defaults.space();
        long stripe = defaults.stripe(), region = defaults.region(), sh = defaults.sh(), ss = defaults.ss();
        int groupSize = defaults.groupSize();
        for (Map.Entry<String, String> e : kv.entrySet()) {
            String at = where + " (" + e.getKey() + ")";
            switch (e.getKey()) {
                case "stripe" -> stripe = size(e.getValue(), at);
                case "space", "class" -> space = ServerClass.parse(e.getValue(), at);
                case "region" -> region = size(e.getValue(), at);
                case "group" -> groupSize = parseInt(e.getValue(), at);
                case "sh" -> sh = size(e.getValue(), at);
                case "ss" -> ss = size(e.getValue(), at);
                default -> throw new ConfigException(where + ": unknown layout setting '" + e.getKey()
                        + "' (known: stripe, space, region, group, sh, ss)");
            }
        }
        if (d == Distribution.HYBRID) {
            space = ServerClass.BOTH;
            if (!kv.containsKey("sh") && !kv.containsKey("ss")) {
                sh = stripe;
                ss = stripe;
            }
            stripe = Math.max(1, Math.max(sh, ss));
        }
        if (d == Distribution.TWO_D && !kv.containsKey("group")) {
            throw new ConfigException(where + ": a 2-D layout needs a group size, as in 2d:4");
        }
        try {
            return new Layout(d, space, stripe, d == Distribution.TWO_D ? groupSize : Math.max(1, groupSize), region, sh, ss);
        } catch (ConfigException e) {
            throw new ConfigException(where + ": " + e.getMessage(), e);
        }
    }

    private static long size(String text, String where) {
        try {
            return ByteSize.parse(text, where);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    private static int parseInt(String text, String where) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(where + ": '" + text + "' is not a whole number", e);
        }
    }

    /** This layout in the driver SPI's vocabulary (kind 1-DH/1-DV/2-D/hybrid). */
    public StorageLayout toStorageLayout() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("space", space.label());
        switch (distribution) {
            case ONE_DH -> p.put("stripe", Long.toString(stripe));
            case ONE_DV -> p.put("region", Long.toString(region));
            case TWO_D -> {
                p.put("stripe", Long.toString(stripe));
                p.put("group", Integer.toString(groupSize));
                p.put("region", Long.toString(region));
            }
            case HYBRID -> {
                p.put("sh", Long.toString(sh));
                p.put("ss", Long.toString(ss));
            }
        }
        return new StorageLayout(distribution.label(), p);
    }

    public static Layout fromStorageLayout(StorageLayout layout, Layout defaults) {
        String where = "layout " + layout.kind();
        return fromSettings(Distribution.parse(layout.kind(), where), layout.parameters(), defaults, where);
    }

    /** A short spec that {@link #parse} reads back to an equal layout. */
    public String spec() {
        return switch (distribution) {
            case ONE_DH -> "1dh,stripe=" + stripe + ",space=" + space.label();
            case ONE_DV -> "1dv,region=" + region + ",space=" + space.label();
            case TWO_D -> "2d:" + groupSize + ",stripe=" + stripe + ",region=" + region + ",space=" + space.label();
            case HYBRID -> "hybrid,sh=" + sh + ",ss=" + ss;
        };
    }
}
