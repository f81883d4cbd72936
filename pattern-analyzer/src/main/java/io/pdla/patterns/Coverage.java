package io.pdla.patterns;

/** How much of the data requests and bytes the patterns explain. */
public record Coverage(long requests, long bytes, long explainedRequests, long explainedBytes) {
    public static final Coverage NONE = new Coverage(0, 0, 0, 0);

    public Coverage plus(Coverage o) {
        return new Coverage(requests + o.requests, bytes + o.bytes, explainedRequests + o.explainedRequests,
                explainedBytes + o.explainedBytes);
    }

    /** 1 when there were no requests (nothing left unexplained). */
    public double requestFraction() {
        return requests == 0 ? 1.0 : (double) explainedRequests / requests;
    }

    public double byteFraction() {
        return bytes == 0 ? 1.0 : (double) explainedBytes / bytes;
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "%.1f%% of %d requests, %.1f%% of %d bytes",
                100 * requestFraction(), requests, 100 * byteFraction(), bytes);
    }
}
