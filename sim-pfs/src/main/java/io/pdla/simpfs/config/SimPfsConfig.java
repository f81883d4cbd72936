package io.pdla.simpfs.config;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.pdla.simpfs.layout.SimLayouts;
import io.pdla.storage.Layout;

/**
 * The simulated file system: {@code hservers} HDD servers (global server ids {@code 0..hservers-1}) and
 * {@code sservers} SSD servers (ids {@code hservers..hservers+sservers-1}), the layout new files get when
 * neither their directory nor the open's hints say otherwise, and the device and network models.
 * {@code fileSpacingGB} places the k-th file of a run at disk address {@code k * fileSpacing} (modulo the
 * capacity) on every HDD, so that switching between files costs a seek.
 * {@code extentLocks} turns on counting of Lustre-like extent lock conflicts. {@code flow} is the servers'
 * pipelining of a sub-request between network and device.
 */
public record SimPfsConfig(int hservers, int sservers, String defaultLayout, HddParams hdd, SsdParams ssd,
                           NetworkParams network, FlowParams flow, double fileSpacingGB, boolean extentLocks) {
    public static final SimPfsConfig DEFAULT = new SimPfsConfig(8, 4, "1dh,stripe=64k,space=hdd",
            HddParams.DEFAULT, SsdParams.DEFAULT, NetworkParams.DEFAULT, FlowParams.DEFAULT, 10, true);

    public SimPfsConfig {
        if (hservers < 0) throw new ConfigException("hservers must be >= 0, was " + hservers);
        if (sservers < 0) throw new ConfigException("sservers must be >= 0, was " + sservers);
        if (hservers + sservers == 0) throw new ConfigException("the file system needs at least one server (hservers + sservers = 0)");
        if (hdd == null) throw new ConfigException("hdd parameters missing");
        if (ssd == null) throw new ConfigException("ssd parameters missing");
        if (network == null) throw new ConfigException("network parameters missing");
        if (flow == null) throw new ConfigException("flow parameters missing");
        Check.nonNegative("fileSpacingGB", fileSpacingGB);
        if (defaultLayout == null) throw new ConfigException("defaultLayout missing");
        SimLayouts.parse(defaultLayout, Layout.DEFAULT, "defaultLayout");
    }

    public static Builder builder() {
        return new Builder(DEFAULT);
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    @JsonIgnore
    public int servers() {
        return hservers + sservers;
    }

    @JsonIgnore
    public Layout defaultLayoutParsed() {
        return SimLayouts.parse(defaultLayout, Layout.DEFAULT, "defaultLayout");
    }

    public boolean isSsd(int server) {
        return server >= hservers;
    }

    public static final class Builder {
        private int hservers, sservers;
        private String defaultLayout;
        private HddParams hdd;
        private SsdParams ssd;
        private NetworkParams network;
        private FlowParams flow;
        private double fileSpacingGB;
        private boolean extentLocks;

        private Builder(SimPfsConfig c) {
            hservers = c.hservers;
            sservers = c.sservers;
            defaultLayout = c.defaultLayout;
            hdd = c.hdd;
            ssd = c.ssd;
            network = c.network;
            flow = c.flow;
            fileSpacingGB = c.fileSpacingGB;
            extentLocks = c.extentLocks;
        }

        public Builder hservers(int n) { hservers = n; return this; }
        public Builder sservers(int n) { sservers = n; return this; }
        public Builder defaultLayout(String spec) { defaultLayout = spec; return this; }
        public Builder hdd(HddParams p) { hdd = p; return this; }
        public Builder ssd(SsdParams p) { ssd = p; return this; }
        public Builder network(NetworkParams p) { network = p; return this; }
        public Builder flow(FlowParams p) { flow = p; return this; }

        /** The device and server model before issue 17: no disk cache, zones or reordering, one SSD channel, no flows. */
        public Builder plainModel() {
            hdd = hdd.plain();
            ssd = ssd.withChannels(1);
            flow = FlowParams.WHOLE;
            return this;
        }
        public Builder fileSpacingGB(double g) { fileSpacingGB = g; return this; }
        public Builder extentLocks(boolean on) { extentLocks = on; return this; }

        public SimPfsConfig build() {
            return new SimPfsConfig(hservers, sservers, defaultLayout, hdd, ssd, network, flow, fileSpacingGB, extentLocks);
        }
    }
}
