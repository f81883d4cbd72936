package io.pdla.patterns.db;

import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.Geometry;
import io.pdla.pattern.PatternKey;
import io.pdla.patterns.RuntimeInfo;
import io.pdla.patterns.template.OpMix;
import io.pdla.patterns.template.PatternKind;
import io.pdla.patterns.template.Temporal;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/** Child process of the crash test: stores entry after entry, printing each committed index, until killed. */
public final class CrashWriter {
    public static void main(String[] args) {
        try (PatternDatabase db = PatternDatabase.open(Path.of(args[0]))) {
            for (int i = 0; ; i++) {
                db.put(entry(i));
                System.out.println("committed " + i);
                System.out.flush();
            }
        }
    }

    public static PatternEntry entry(int i) {
        Geometry g = Geometry.strided(i * 4096L, 4096, 65536, 10 + i % 50);
        StoredPattern p = new StoredPattern(PatternKind.STRIDED, OpMix.READ_ONLY, g.spec(), 10 + i % 50,
                4096L * (10 + i % 50), 1, new long[]{4096}, new Temporal(Temporal.Kind.FIXED, 1000), List.of(), null,
                "entry " + i + " " + "x".repeat(i % 300));
        return new PatternEntry(new PatternKey(new AppIdentity("crash-app", 64), i % 64, URI.create("file:///data/file-" + i)), List.of(p),
                new RuntimeInfo("simpfs", 8, 65536L, 4, List.of(4096L), java.util.Map.of()));
    }
}
