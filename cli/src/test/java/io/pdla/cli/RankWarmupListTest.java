package io.pdla.cli;

import io.pdla.cli.programs.WarmupTraining;
import io.pdla.mpiio.launch.MpjJob;
import io.pdla.mpiio.launch.RankMain;
import io.pdla.mpiio.launch.RankWarmup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RankWarmup}'s class list is what a real job loads: a 4-rank multicore job of {@link WarmupTraining} (open,
 * independent, nonblocking and collective reads and writes, views, sync, close; a read-only open with mapped reads),
 * with the warm-up off and the JVM logging every class it loads, loads no pdla class the list lacks, and every listed
 * class exists. Run with {@code -Dpdla.warmup.regenerate=true} to write the list anew from such a job (three runs,
 * united) after a change to the I/O path.
 */
class RankWarmupListTest {
    private static final Path LIST = Path.of("../mpiio-shim/src/main/resources/io/pdla/mpiio/launch", RankWarmup.LIST);

    @TempDir
    Path tmp;

    @Test
    void theListHoldsEveryPdlaClassAJobLoadsAndNothingElse() throws Exception {
        boolean regenerate = Boolean.getBoolean("pdla.warmup.regenerate");
        Set<String> loaded = new TreeSet<>();
        for (int run = 0; run < (regenerate ? 3 : 1); run++) loaded.addAll(classesLoadedByAJob(run));
        assertTrue(loaded.contains("io.pdla.mpiio.File") && loaded.contains("io.pdla.storage.posix.PosixFile"),
                "the class-load log holds the shim's classes: " + loaded);
        if (regenerate) {
            List<String> lines = new ArrayList<>();
            lines.add("# Written by cli's RankWarmupListTest (-Dpdla.warmup.regenerate=true): the pdla classes a 4-rank job of");
            lines.add("# WarmupTraining loads. RankWarmup loads and initialises them at each rank's start.");
            lines.addAll(loaded);
            Files.write(LIST, lines);
        }
        // what ships is the class path's copy; a regenerating run checks the file it just wrote
        List<String> listed = regenerate ? Files.readAllLines(LIST).stream().filter(l -> !l.startsWith("#")).toList() : RankWarmup.classNames();
        Set<String> missing = new TreeSet<>(loaded);
        missing.removeAll(listed);
        assertEquals(Set.of(), missing, "classes a job loads that " + RankWarmup.LIST
                + " lacks: rerun this test with -Dpdla.warmup.regenerate=true (mvn -pl cli test -Dtest=RankWarmupListTest -Dpdla.warmup.regenerate=true)");
        List<String> stale = new ArrayList<>();
        ClassLoader loader = getClass().getClassLoader();
        for (String name : listed) {
            if (loader.getResource(name.replace('.', '/') + ".class") == null) stale.add(name);
        }
        assertEquals(List.of(), stale, "listed classes that no longer exist: regenerate the list");
    }

    /** The pdla classes (not the test program's, not hidden or lambda classes) that one job's JVM loaded. */
    private Set<String> classesLoadedByAJob(int run) throws Exception {
        Path log = tmp.resolve("classes-" + run + ".log");
        Path data = tmp.resolve("warm-" + run + ".dat");
        MpjJob.Result r = MpjJob.builder(RankMain.class.getName()).processes(4)
                .classPath(List.of(CollectiveJobs.tests())).classPath(PdlaJar.classPath())
                .args(List.of(data.toString()))
                .env(RankMain.ENV_MAIN_CLASS, WarmupTraining.class.getName())
                .env(RankWarmup.ENV, "false")
                .jvmOption("-Xlog:class+load=info:file=" + log + ":none")
                .build().run(120);
        assertTrue(r.succeeded(), r.output());
        for (int rank = 0; rank < 4; rank++) assertTrue(r.output().contains("WARM rank " + rank + " ok"), r.output());
        Set<String> out = new TreeSet<>();
        for (String line : Files.readAllLines(log)) {
            int space = line.indexOf(' ');
            String name = space < 0 ? line : line.substring(0, space);
            if (!name.startsWith("io.pdla.") || name.contains("$$Lambda") || name.contains("/0x")) continue;
            // the test program, and the launch classes, which are loaded before the warm-up starts
            if (name.startsWith("io.pdla.cli.") || name.startsWith("io.pdla.mpiio.launch.")) continue;
            out.add(name);
        }
        return out;
    }
}
