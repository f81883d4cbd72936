package io.pdla.patterns.db;

import java.util.ArrayList;
import java.util.List;

/**
 * The pattern database's value codec run once over entries of no database, so that a daemon's first store finds its
 * JSON classes loaded and their serializers built (Jackson builds them at a type's first use: most of the 1,100
 * classes a fresh daemon loaded between a job's hand-off and its first copy, bench/RESULTS-online.md).
 */
public final class EntryCodecWarmup {
    private EntryCodecWarmup() {
    }

    /** Each entry encoded as the database stores it, then decoded as it reads it back. */
    public static List<PatternEntry> roundTrip(List<PatternEntry> entries) {
        List<PatternEntry> back = new ArrayList<>(entries.size());
        for (PatternEntry e : entries) back.add(EntryCodec.decode(e.key(), EntryCodec.encode(e)));
        return back;
    }
}
