package io.pdla.costmodel;

import java.io.Serializable;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;

/**
 * All machine parameters of the cost model: network ({@code e, v}), HDD servers ({@code a_h, b_h}) and SSD
 * servers, whose reads and writes differ ({@code a_sr, b_sr, a_sw, b_sw}) [V, S1 Tables 1 and 3].
 * This is what calibration produces and what is stored with the runtime information
 * ({@link #toProperties()} / {@link #fromProperties(Properties)}).
 *
 * <p>{@link #defaults()} are datasheet-class values for the hardware of the papers' testbeds (7200 RPM SATA
 * disks, 2012-2014 SATA/PCIe SSDs, gigabit Ethernet; see {@code shared/design/architecture.md}, "Timing in
 * sim-pfs"). The papers publish no device parameters, so none of these numbers comes from them [R].
 */
public record ModelParameters(NetworkParameters network, DeviceParameters hdd,
                              DeviceParameters ssdRead, DeviceParameters ssdWrite) implements Serializable {

    /** Gigabit Ethernet: tens of microseconds per message set-up; we take 50 us [R, datasheet class]. */
    public static final double DEFAULT_CONNECT_SECONDS = 50e-6;
    /** Gigabit Ethernet payload rate of about 117 MB/s per link [R, datasheet class]. */
    public static final double DEFAULT_NETWORK_SECONDS_PER_BYTE = 1.0 / 117e6;
    /** 7200 RPM SATA disk: ~7.8 ms average seek + 4.17 ms average rotational latency = 12 ms [R, datasheet class]. */
    public static final double DEFAULT_HDD_STARTUP_SECONDS = 12e-3;
    /** 7200 RPM SATA disk: ~80 MB/s sustained, the middle of the 60-110 MB/s zone range [R, datasheet class]. */
    public static final double DEFAULT_HDD_SECONDS_PER_BYTE = 1.0 / 80e6;
    /** SATA SSD read start-up ~0.08 ms [R, datasheet class]. */
    public static final double DEFAULT_SSD_READ_STARTUP_SECONDS = 0.08e-3;
    /** SATA SSD sequential read ~400 MB/s [R, datasheet class]. */
    public static final double DEFAULT_SSD_READ_SECONDS_PER_BYTE = 1.0 / 400e6;
    /** SSD writes start slower (program latency, FTL bookkeeping): 0.25 ms [R, datasheet class]. */
    public static final double DEFAULT_SSD_WRITE_STARTUP_SECONDS = 0.25e-3;
    /** SSD sustained writes ~250 MB/s, below reads because of garbage collection [R, datasheet class]. */
    public static final double DEFAULT_SSD_WRITE_SECONDS_PER_BYTE = 1.0 / 250e6;

    private static final String PREFIX = "pdla.cost.";
    private static final String[] KEYS = {
        "network.connectSeconds", "network.secondsPerByte",
        "hdd.startupSeconds", "hdd.secondsPerByte",
        "ssd.read.startupSeconds", "ssd.read.secondsPerByte",
        "ssd.write.startupSeconds", "ssd.write.secondsPerByte"};

    public ModelParameters {
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(hdd, "hdd");
        Objects.requireNonNull(ssdRead, "ssdRead");
        Objects.requireNonNull(ssdWrite, "ssdWrite");
    }

    public static ModelParameters defaults() {
        return new ModelParameters(
                new NetworkParameters(DEFAULT_CONNECT_SECONDS, DEFAULT_NETWORK_SECONDS_PER_BYTE),
                new DeviceParameters(DEFAULT_HDD_STARTUP_SECONDS, DEFAULT_HDD_SECONDS_PER_BYTE),
                new DeviceParameters(DEFAULT_SSD_READ_STARTUP_SECONDS, DEFAULT_SSD_READ_SECONDS_PER_BYTE),
                new DeviceParameters(DEFAULT_SSD_WRITE_STARTUP_SECONDS, DEFAULT_SSD_WRITE_SECONDS_PER_BYTE));
    }

    /** SSD device parameters for the given direction. */
    public DeviceParameters ssd(Op op) {
        return op == Op.WRITE ? ssdWrite : ssdRead;
    }

    public ModelParameters withNetwork(NetworkParameters n) {
        return new ModelParameters(n, hdd, ssdRead, ssdWrite);
    }

    public ModelParameters withHdd(DeviceParameters d) {
        return new ModelParameters(network, d, ssdRead, ssdWrite);
    }

    public ModelParameters withSsd(Op op, DeviceParameters d) {
        return op == Op.WRITE ? new ModelParameters(network, hdd, ssdRead, d)
                : new ModelParameters(network, hdd, d, ssdWrite);
    }

    /** Keys {@code pdla.cost.*}; values in seconds and seconds per byte, written so they parse back exactly. */
    public Properties toProperties() {
        double[] values = asArray();
        Properties props = new Properties();
        for (int i = 0; i < KEYS.length; i++) {
            props.setProperty(PREFIX + KEYS[i], Double.toString(values[i]));
        }
        return props;
    }

    /**
     * Reads the keys written by {@link #toProperties()}. A missing key keeps the value of {@code fallback}
     * (so a file that calibrated only the network still works); an unparsable or negative value is an error.
     */
    public static ModelParameters fromProperties(Properties props, ModelParameters fallback) {
        double[] values = fallback.asArray();
        for (int i = 0; i < KEYS.length; i++) {
            String key = PREFIX + KEYS[i];
            String text = props.getProperty(key);
            if (text != null) {
                try {
                    values[i] = Double.parseDouble(text.trim());
                } catch (NumberFormatException ex) {
                    throw new IllegalArgumentException(key + " must be a number, was " + text, ex);
                }
                Checks.nonNegative(key, values[i]);
            }
        }
        return fromArray(values);
    }

    /** {@link #fromProperties(Properties, ModelParameters)} with {@link #defaults()} as fallback. */
    public static ModelParameters fromProperties(Properties props) {
        return fromProperties(props, defaults());
    }

    private double[] asArray() {
        return new double[] {
            network.connectSeconds(), network.secondsPerByte(),
            hdd.startupSeconds(), hdd.secondsPerByte(),
            ssdRead.startupSeconds(), ssdRead.secondsPerByte(),
            ssdWrite.startupSeconds(), ssdWrite.secondsPerByte()};
    }

    private static ModelParameters fromArray(double[] v) {
        return new ModelParameters(new NetworkParameters(v[0], v[1]), new DeviceParameters(v[2], v[3]),
                new DeviceParameters(v[4], v[5]), new DeviceParameters(v[6], v[7]));
    }

    /** Human-readable summary in microseconds and MB/s (1 MB = 10^6 bytes). */
    public String describe() {
        return String.format(Locale.ROOT,
                "network e=%.1f us, v=1/(%.1f MB/s); hdd a=%.3f ms, b=1/(%.1f MB/s); "
                        + "ssd read a=%.3f ms, b=1/(%.1f MB/s); ssd write a=%.3f ms, b=1/(%.1f MB/s)",
                network.connectSeconds() * 1e6, rate(network.secondsPerByte()),
                hdd.startupSeconds() * 1e3, rate(hdd.secondsPerByte()),
                ssdRead.startupSeconds() * 1e3, rate(ssdRead.secondsPerByte()),
                ssdWrite.startupSeconds() * 1e3, rate(ssdWrite.secondsPerByte()));
    }

    private static double rate(double secondsPerByte) {
        return secondsPerByte == 0 ? Double.POSITIVE_INFINITY : 1e-6 / secondsPerByte;
    }
}
