package io.pdla.simpfs.layout;

import io.pdla.simpfs.config.ConfigException;
import io.pdla.storage.Layout;
import io.pdla.storage.Layout.Distribution;
import io.pdla.storage.Layout.ServerClass;

/**
 * What sim-pfs needs of core's {@link Layout} (the one layout description of pdla) at the points where it
 * takes one: a region for 1-DV and 2-D (a region the description leaves to the store, 0, gets the
 * defaults' or {@link #DEFAULT_REGION}), a striped distribution (every sim-pfs file is striped), no server
 * counts (a sim-pfs file always spans every server of its class), and errors as {@link ConfigException}s
 * naming where the layout came from. Layouts inside sim-pfs are in this resolved form; their text form is
 * core's {@link Layout#toString()}.
 */
public final class SimLayouts {
    /** The region of a 1-DV or 2-D layout that names none, when its defaults name none either. */
    public static final long DEFAULT_REGION = 64L * 1024 * 1024;

    private SimLayouts() {
    }

    /**
     * Parses core's layout text form, filling what it leaves out from {@code defaults} (for a 1-DV or 2-D
     * region: the defaults' region, else {@link #DEFAULT_REGION}). {@code where} names the source in errors.
     */
    public static Layout parse(String spec, Layout defaults, String where) {
        if (spec == null || spec.isBlank()) throw new ConfigException(where + ": empty layout specification");
        Layout core;
        try {
            core = Layout.parse(spec, defaults.withServers(0, 0));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(where + ": " + e.getMessage(), e);
        }
        return resolve(core, defaults, where);
    }

    /**
     * The layout as sim-pfs keeps it: a 1-DV or 2-D region left to the store (0) comes from {@code defaults}
     * (else {@link #DEFAULT_REGION}); a region that 1-DH and hybrid do not use is dropped; server counts are
     * not read (the driver checks counts a caller names). An unstriped layout is refused: every sim-pfs
     * file is striped.
     */
    public static Layout resolve(Layout layout, Layout defaults, String where) {
        long region = layout.region() > 0 ? layout.region() : defaults.region() > 0 ? defaults.region() : DEFAULT_REGION;
        ServerClass space = layout.space();
        return switch (layout.distribution()) {
            case ONE_DH -> Layout.oneDH(space, layout.stripe());
            case ONE_DV -> Layout.oneDV(space, region).withStripe(layout.stripe());
            case TWO_D -> Layout.twoD(space, layout.groupSize(), layout.stripe(), region);
            case HYBRID -> Layout.hybrid(layout.hddStripe(), layout.ssdStripe());
            case UNSTRIPED -> throw new ConfigException(where + ": layout " + layout + ": sim-pfs stripes every file; use 1dh, 1dv, 2d:G or hybrid");
        };
    }

    /**
     * Refuses what sim-pfs cannot place, with the reason: an unstriped layout, and a 1-DV or 2-D layout
     * whose region is left to the store (0; {@link #resolve} fills it).
     */
    public static Layout check(Layout layout) {
        if (layout.distribution() == Distribution.UNSTRIPED) {
            throw new ConfigException("layout " + layout + ": sim-pfs stripes every file; use 1dh, 1dv, 2d:G or hybrid");
        }
        if ((layout.distribution() == Distribution.ONE_DV || layout.distribution() == Distribution.TWO_D) && layout.region() <= 0) {
            throw new ConfigException("layout " + layout.distribution().label() + ": region must be > 0, was " + layout.region());
        }
        return layout;
    }

    /**
     * The layout on a file system of {@code hservers} HServers and {@code sservers} SServers: spread over
     * every server of its class, as the driver reports it.
     */
    public static Layout spread(Layout layout, int hservers, int sservers) {
        ServerClass space = layout.space();
        return resolve(layout, layout, "layout").withServers(space == ServerClass.SSD ? 0 : hservers, space == ServerClass.HDD ? 0 : sservers);
    }

    /** The same layout on another server class; a hybrid layout is always on both. */
    public static Layout withSpace(Layout layout, ServerClass space) {
        if (layout.distribution() == Distribution.HYBRID && space != ServerClass.BOTH) {
            throw new ConfigException("layout hybrid stripes over HDD and SSD servers; space must be both, was " + space.label());
        }
        return layout.withSpace(space);
    }

    /** The same layout with another region (which only 1-DV and 2-D use), which must be > 0. */
    public static Layout withRegion(Layout layout, long region) {
        if (region <= 0) throw new ConfigException("layout " + layout.distribution().label() + ": region must be > 0, was " + region);
        return layout.withRegion(region);
    }
}
