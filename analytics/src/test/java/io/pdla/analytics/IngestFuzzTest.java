package io.pdla.analytics;

import io.pdla.testing.fuzz.Bounded;
import io.pdla.testing.fuzz.Mutation;
import io.pdla.testing.fuzz.Mutations;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 18, bad input, for {@code pdla logs ingest}: a directory with one intact sample log and one mutated one
 * ingests the intact log and either ingests the damaged one (whole, or in part and listed) or lists it as
 * unreadable naming its path; a damaged {@code manifest.json} is an IOException naming it. Never another
 * exception, a hang, or an allocation beyond the bound.
 */
class IngestFuzzTest {
    private static final String GOOD = "pdla-written-3.41-bzip2.darshan";

    @Provide
    Arbitrary<String> log() {
        return Arbitraries.of("pdla-written-32-ranks.darshan", "pdla-written-3.41-big-endian.darshan", "pdla-written-partial-posix.darshan",
                "pdla-written-h5d-v1.darshan", "pdla-written-posix-v3.darshan");
    }

    @Provide
    Arbitrary<Mutation> damage() {
        return Mutations.some(ByteOrder.LITTLE_ENDIAN);
    }

    @Property(tries = 60)
    void aDamagedLogIsIngestedOrListedAndTheOthersAreIngested(@ForAll("log") String name, @ForAll("damage") Mutation m) throws Exception {
        Path dir = Files.createTempDirectory("pdla-ingest-fuzz");
        try {
            Path logs = Files.createDirectories(dir.resolve("logs"));
            Files.copy(SampleLogs.get(GOOD), logs.resolve(GOOD));
            Path bad = logs.resolve("damaged-" + name);
            Files.write(bad, m.apply(Files.readAllBytes(SampleLogs.get(name))));
            Tables tables = Tables.create(dir.resolve("tables"));
            Bounded.Outcome<Ingest.Result> o = Bounded.run(Duration.ofSeconds(30), 1L << 30,
                    () -> new Ingest(tables, 1).run(List.of(logs), Ingest.Progress.NONE));
            if (o.failed()) fail(name + " damaged by '" + m + "': ingest threw " + Bounded.describe(o.error()), o.error());
            Ingest.Result r = o.value();
            assertEquals(2, r.found());
            assertTrue(r.ingested() >= 1, "the intact log is ingested: " + r);
            for (Ingest.Problem p : r.problems()) {
                assertEquals(bad, p.path(), "only the damaged log has a problem: " + r.problems());
                assertTrue(p.error() != null && !p.error().isBlank(), "the problem says what: " + p);
            }
            Statistics.label("outcome").collect(r.ingested() == 2 ? (r.problems().isEmpty() ? "ingested whole" : "ingested in part, listed")
                    : "unreadable, listed and skipped");
        } finally {
            delete(dir);
        }
    }

    @Property(tries = 40)
    void aDamagedManifestIsReadOrRefusedNamingIt(@ForAll("damage") Mutation m) throws Exception {
        Path dir = Files.createTempDirectory("pdla-ingest-fuzz");
        try {
            Path logs = Files.createDirectories(dir.resolve("logs"));
            Files.copy(SampleLogs.get(GOOD), logs.resolve(GOOD));
            Tables tables = Tables.create(dir.resolve("tables"));
            new Ingest(tables, 1).run(List.of(logs), Ingest.Progress.NONE);
            Path manifest;
            try (Stream<Path> s = Files.list(dir.resolve("tables"))) {
                manifest = s.filter(p -> p.getFileName().toString().startsWith("manifest")).findFirst().orElseThrow();
            }
            Files.write(manifest, m.apply(Files.readAllBytes(manifest)));
            Files.copy(SampleLogs.get("pdla-written-32-ranks.darshan"), logs.resolve("pdla-written-32-ranks.darshan"));
            Bounded.Outcome<Ingest.Result> o = Bounded.run(Duration.ofSeconds(30), 1L << 30,
                    () -> new Ingest(Tables.open(dir.resolve("tables")), 1).run(List.of(logs), Ingest.Progress.NONE));
            if (!o.failed()) {
                Statistics.label("outcome").collect("read");
                return;
            }
            if (!(o.error() instanceof IOException) || !o.error().getMessage().contains(manifest.toString())) {
                fail("damage '" + m + "' of the manifest gave " + Bounded.describe(o.error()), o.error());
            }
            Statistics.label("outcome").collect("IOException naming the manifest");
        } finally {
            delete(dir);
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
