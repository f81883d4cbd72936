package io.pdla.patterns;

import java.util.List;
import java.util.Map;

/**
 * What the cost model needs to price a stored pattern later, as far as it is known at analysis time. Every
 * field is optional (null or empty when unknown); {@code extra} keeps anything else (hints) without a schema
 * change.
 *
 * @param fileSystem   URI scheme of the file system ("file", "simpfs", "hdfs", ...)
 * @param servers      number of storage servers (OSTs, data nodes)
 * @param stripeSize   stripe unit in bytes
 * @param stripeCount  servers a file is striped over
 * @param requestSizes the request sizes the patterns use, ascending
 */
public record RuntimeInfo(String fileSystem, Integer servers, Long stripeSize, Integer stripeCount,
                          List<Long> requestSizes, Map<String, String> extra) {
    public RuntimeInfo {
        requestSizes = requestSizes == null ? List.of() : List.copyOf(requestSizes);
        extra = extra == null ? Map.of() : Map.copyOf(extra);
    }

    public static RuntimeInfo unknown() {
        return new RuntimeInfo(null, null, null, null, List.of(), Map.of());
    }

    public RuntimeInfo withRequestSizes(List<Long> sizes) {
        return new RuntimeInfo(fileSystem, servers, stripeSize, stripeCount, sizes, extra);
    }
}
