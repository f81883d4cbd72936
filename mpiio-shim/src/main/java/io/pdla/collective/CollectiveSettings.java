package io.pdla.collective;

import io.pdla.delegate.partition.PartitionMethod;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The collective-buffering and file-domain hints of one open file, validated, with their effective
 * values (ROMIO's keys and defaults, plus pdla's partitioning choice). Stripe size and server count come
 * from the driver's layout unless {@code striping_unit} / {@code striping_factor} override them.
 */
public record CollectiveSettings(Mode read, Mode write, int cbNodes, long cbBufferSize, int aggregatorsPerHost,
                                 long stripeSize, int servers, PartitionMethod method, boolean stripeSizeIo,
                                 long minDomainSize, List<HostSlots> configList, boolean aggregatorsByData,
                                 long bytesPerAggregator, ExchangeMode exchange, boolean lazyReads) {
    public static final String CB_READ = "romio_cb_read";
    public static final String CB_WRITE = "romio_cb_write";
    public static final String CB_NODES = "cb_nodes";
    public static final String CB_BUFFER_SIZE = "cb_buffer_size";
    public static final String CB_CONFIG_LIST = "cb_config_list";
    public static final String STRIPING_UNIT = "striping_unit";
    public static final String STRIPING_FACTOR = "striping_factor";
    public static final String STRIPE_SIZE_IO = "pdla_fd_stripe_io";
    public static final String MIN_FD_SIZE = "pdla_min_fd_size";
    public static final String BYTES_PER_AGGREGATOR = "pdla_bytes_per_aggregator";
    /** Whether steady collective reads that each rank serves itself may skip their meetings ({@link SteadyReads}). */
    public static final String LAZY_READS = "pdla_lazy_coll_reads";

    /** ROMIO's default collective buffer (16 MiB). */
    public static final long DEFAULT_CB_BUFFER_SIZE = 16L << 20;
    /** Smallest file domain worth an aggregator: below it fewer aggregators get bigger domains. */
    public static final long DEFAULT_MIN_FD_SIZE = 64L << 10;

    /**
     * One entry of a {@code cb_config_list} naming hosts ({@code name[:N]}, {@code *[:N]}): up to
     * {@code max} ranks of host {@code host} ({@code null}: of every host), which is then used up.
     */
    public record HostSlots(String host, int max) {
    }

    /** {@code romio_cb_read} / {@code romio_cb_write}. */
    public enum Mode {
        ENABLE, DISABLE, AUTOMATIC;

        static Mode parse(String key, String value) {
            if (value == null) return AUTOMATIC;
            return switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "enable" -> ENABLE;
                case "disable" -> DISABLE;
                case "automatic" -> AUTOMATIC;
                default -> throw new IllegalArgumentException("hint " + key + "=" + value + ": expected enable, disable or automatic");
            };
        }

        String hintValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * @param hosts          number of distinct hosts among the file's ranks ({@code cb_config_list}'s unit)
     * @param layoutStripe   the driver's stripe size for the file (bytes, > 0)
     * @param layoutServers  servers the file is spread over (>= 1)
     */
    public static CollectiveSettings from(Map<String, String> hints, int commSize, int hosts, long layoutStripe, int layoutServers) {
        Mode read = Mode.parse(CB_READ, hints.get(CB_READ));
        Mode write = Mode.parse(CB_WRITE, hints.get(CB_WRITE));
        long cbBuffer = positiveSize(hints, CB_BUFFER_SIZE, DEFAULT_CB_BUFFER_SIZE);
        if (cbBuffer > Integer.MAX_VALUE - 8192) throw new IllegalArgumentException("hint " + CB_BUFFER_SIZE + "=" + hints.get(CB_BUFFER_SIZE) + ": at most 2 GiB");
        // Neither hint: each call picks its aggregators by its size (OMPIO's bytes-per-aggregator rule), any
        // rank a candidate. ROMIO's one per host assumes the network is what aggregators save; on one host it
        // serialises all storage requests behind one thread (measured: O_DIRECT Tile-IO reads at 0.83 of
        // independent with one aggregator, 1.89 with four).
        boolean byData = !hints.containsKey(CB_NODES) && !hints.containsKey(CB_CONFIG_LIST);
        long bytesPerAggregator = positiveSize(hints, BYTES_PER_AGGREGATOR, cbBuffer);
        // cb_nodes alone asks for that many aggregators: the per-host default (*:1) would cap it at one per node
        List<HostSlots> list = configList(hints.get(CB_CONFIG_LIST));
        int perHost = byData || (hints.containsKey(CB_NODES) && !hints.containsKey(CB_CONFIG_LIST)) || list != null
                ? Integer.MAX_VALUE : perHost(hints.get(CB_CONFIG_LIST), commSize);
        int defaultNodes = Math.min(commSize, (int) Math.min(Integer.MAX_VALUE, (long) hosts * perHost));
        int cbNodes = (int) positiveLong(hints, CB_NODES, defaultNodes);
        cbNodes = Math.min(cbNodes, commSize);
        long stripe = positiveSize(hints, STRIPING_UNIT, layoutStripe);
        int servers = (int) positiveLong(hints, STRIPING_FACTOR, layoutServers);
        String m = hints.get(PartitionMethod.HINT);
        // ROMIO aligns file domains whenever it knows a striping unit; every store here reports one (an
        // unstriped POSIX file its block size), which also keeps aggregators' requests O_DIRECT-aligned.
        PartitionMethod method = m == null ? PartitionMethod.STRIPE_ALIGNED : PartitionMethod.fromHint(m);
        boolean stripeIo = bool(hints, STRIPE_SIZE_IO);
        long minFd = positiveSize(hints, MIN_FD_SIZE, DEFAULT_MIN_FD_SIZE);
        return new CollectiveSettings(read, write, cbNodes, cbBuffer, perHost, stripe, servers, method, stripeIo, minFd, list,
                byData, bytesPerAggregator, ExchangeMode.fromHint(hints.get(ExchangeMode.HINT)), io.pdla.hints.HintFlag.of(hints, LAZY_READS, true));
    }

    /** The hints in effect, as {@code getInfo()} reports them. */
    public Map<String, String> effective() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(CB_READ, read.hintValue());
        m.put(CB_WRITE, write.hintValue());
        m.put(CB_NODES, String.valueOf(cbNodes));
        m.put(CB_BUFFER_SIZE, String.valueOf(cbBufferSize));
        m.put(CB_CONFIG_LIST, configList != null ? configListHint(configList)
                : "*:" + (aggregatorsPerHost == Integer.MAX_VALUE ? "*" : String.valueOf(aggregatorsPerHost)));
        m.put(STRIPING_UNIT, String.valueOf(stripeSize));
        m.put(STRIPING_FACTOR, String.valueOf(servers));
        m.put(PartitionMethod.HINT, method.hintValue());
        m.put(STRIPE_SIZE_IO, String.valueOf(stripeSizeIo));
        m.put(MIN_FD_SIZE, String.valueOf(minDomainSize));
        m.put(BYTES_PER_AGGREGATOR, String.valueOf(bytesPerAggregator));
        m.put(ExchangeMode.HINT, exchange.hintValue());
        m.put(LAZY_READS, String.valueOf(lazyReads));
        return m;
    }

    /**
     * ROMIO's full {@code cb_config_list} grammar ({@code adio/common/cb_config_list.c}): comma-separated
     * {@code name[:N]} entries, {@code name} a processor name or {@code *}, {@code N} a count (0 takes the
     * host out) or {@code *} (default 1). Null for the one-entry form {@code *:N} / {@code *:*}, which
     * {@link #perHost} reads.
     */
    private static List<HostSlots> configList(String value) {
        if (value == null) return null;
        String v = value.trim();
        if (v.startsWith("*:") && !v.contains(",")) return null;
        List<HostSlots> out = new ArrayList<>();
        for (String entry : v.split(",", -1)) {
            String e = entry.trim();
            int colon = e.indexOf(':');
            String name = colon < 0 ? e : e.substring(0, colon);
            if (name.isEmpty() || e.indexOf(':', colon + 1) >= 0 && colon >= 0) {
                throw new IllegalArgumentException("hint " + CB_CONFIG_LIST + "=" + value + ": entry '" + entry + "' is not name[:N] or *[:N]");
            }
            int max = 1;
            if (colon >= 0) {
                String n = e.substring(colon + 1).trim();
                try {
                    max = n.equals("*") ? Integer.MAX_VALUE : Integer.parseInt(n);
                    if (max < 0) throw new NumberFormatException();
                } catch (NumberFormatException x) {
                    throw new IllegalArgumentException("hint " + CB_CONFIG_LIST + "=" + value + ": in entry '" + entry + "' N must be an integer >= 0 or *");
                }
            }
            out.add(new HostSlots(name.equals("*") ? null : name, max));
        }
        return List.copyOf(out);
    }

    private static String configListHint(List<HostSlots> list) {
        List<String> parts = new ArrayList<>();
        for (HostSlots h : list) parts.add((h.host() == null ? "*" : h.host()) + ":" + (h.max() == Integer.MAX_VALUE ? "*" : String.valueOf(h.max())));
        return String.join(",", parts);
    }

    /** {@code *:N} (N aggregators per host) or {@code *:*} (every rank); ROMIO's default is {@code *:1}. */
    private static int perHost(String value, int commSize) {
        if (value == null) return 1;
        String v = value.trim();
        if (!v.startsWith("*:")) {
            throw new IllegalArgumentException("hint " + CB_CONFIG_LIST + "=" + value + ": expected *:N, *:* or a list of name[:N]");
        }
        String n = v.substring(2);
        if (n.equals("*")) return Integer.MAX_VALUE;
        try {
            int k = Integer.parseInt(n);
            if (k < 1) throw new NumberFormatException();
            return k;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("hint " + CB_CONFIG_LIST + "=" + value + ": N must be a positive integer or *");
        }
    }

    private static boolean bool(Map<String, String> hints, String key) {
        return io.pdla.hints.HintFlag.of(hints, key, false);
    }

    private static long positiveLong(Map<String, String> hints, String key, long fallback) {
        String v = hints.get(key);
        if (v == null) return fallback;
        try {
            long n = Long.parseLong(v.trim());
            if (n < 1) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("hint " + key + "=" + v + ": expected a positive integer");
        }
    }

    private static long positiveSize(Map<String, String> hints, String key, long fallback) {
        String v = hints.get(key);
        if (v == null) return fallback;
        long n = io.pdla.size.ByteSize.parse(v, "hint " + key);
        if (n < 1) throw new IllegalArgumentException("hint " + key + "=" + v + ": must be positive");
        return n;
    }
}
