package io.pdla.darshan;

/** A LUSTRE record in version-2 form: per component the 7 counters and the pool name, then all OST ids. */
public record LustreRecord(long id, long rank, long[][] components, String[] poolNames, long[] ostIds) {
    public static final int STRIPE_SIZE = 0, STRIPE_COUNT = 1, STRIPE_PATTERN = 2, FLAGS = 3, EXT_START = 4,
            EXT_END = 5, MIRROR_ID = 6;
}
