package io.pdla.simpfs.layout;

import io.pdla.simpfs.config.ConfigException;

/**
 * A file's distribution over servers. {@code stripe} is the strip per server for 1-DH and inside a 2-D group;
 * {@code groupSize} is the number of servers per 2-D group; {@code region} is the size of one process region
 * for 1-DV and 2-D; {@code sh}/{@code ss} are the per-server strips on HServers/SServers of a hybrid layout.
 * Fields that a distribution does not use are kept but ignored. This is sim-pfs's own form of the core
 * description {@link io.pdla.storage.Layout} ({@link #fromCore}, {@link #toCore}), with the region sizes
 * sim-pfs always needs.
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
     * Parses the core layout text form ({@link io.pdla.storage.Layout}: {@code 1dh}, {@code 1dv},
     * {@code 2d:GROUPSIZE}, {@code hybrid}, with {@code ,key=value} settings), filling what it leaves out
     * from {@code defaults}. {@code where} names the source in error messages.
     */
    public static Layout parse(String spec, Layout defaults, String where) {
        if (spec == null || spec.isBlank()) throw new ConfigException(where + ": empty layout specification");
        io.pdla.storage.Layout core;
        try {
            core = io.pdla.storage.Layout.parse(spec, defaults.toCore(0, 0));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(where + ": " + e.getMessage(), e);
        }
        return fromCore(core, defaults, where);
    }

    /**
     * The core description in sim-pfs's terms. A region left to the store (0) and, for 1-DH and hybrid,
     * the unused region come from {@code defaults}. Server counts are not read here: a sim-pfs file always
     * spans every server of its class (the driver checks counts a caller names). An unstriped layout has
     * no sim-pfs form: every sim-pfs file is striped.
     */
    public static Layout fromCore(io.pdla.storage.Layout core, Layout defaults, String where) {
        ServerClass space = ServerClass.valueOf(core.space().name());
        long region = core.region() > 0 ? core.region() : defaults.region();
        try {
            return switch (core.distribution()) {
                case ONE_DH -> new Layout(Distribution.ONE_DH, space, core.stripe(), 1, region, 0, 0);
                case ONE_DV -> new Layout(Distribution.ONE_DV, space, core.stripe(), 1, region, 0, 0);
                case TWO_D -> new Layout(Distribution.TWO_D, space, core.stripe(), core.groupSize(), region, 0, 0);
                case HYBRID -> new Layout(Distribution.HYBRID, ServerClass.BOTH, core.stripe(), 1, region, core.hddStripe(), core.ssdStripe());
                case UNSTRIPED -> throw new ConfigException("layout " + core + ": sim-pfs stripes every file; use 1dh, 1dv, 2d:G or hybrid");
            };
        } catch (ConfigException e) {
            throw new ConfigException(where + ": " + e.getMessage(), e);
        }
    }

    /**
     * This layout as the core description, spread over the servers of its class out of {@code hservers}
     * HServers and {@code sservers} SServers (0 and 0: counts not named, as in a stored spec).
     */
    public io.pdla.storage.Layout toCore(int hservers, int sservers) {
        io.pdla.storage.Layout.ServerClass cls = io.pdla.storage.Layout.ServerClass.valueOf(space.name());
        io.pdla.storage.Layout core = switch (distribution) {
            case ONE_DH -> io.pdla.storage.Layout.oneDH(cls, stripe);
            case ONE_DV -> io.pdla.storage.Layout.oneDV(cls, region).withStripe(stripe);
            case TWO_D -> io.pdla.storage.Layout.twoD(cls, groupSize, stripe, region);
            case HYBRID -> io.pdla.storage.Layout.hybrid(sh, ss);
        };
        return core.withServers(space == ServerClass.SSD ? 0 : hservers, space == ServerClass.HDD ? 0 : sservers);
    }

    /** The core text form without server counts; {@link #parse} reads it back to an equal layout. */
    public String spec() {
        return toCore(0, 0).toString();
    }
}
