package io.pdla.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.pdla.bench.schemes.SchemeComparison;
import io.pdla.darshan.DarshanLog;
import io.pdla.simpfs.config.SimPfsConfig;
import io.pdla.size.ByteSize;
import io.pdla.size.ByteSizeConverter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code pdla what-if LOG.darshan}: what PDLA's replication schemes would do for the application a Darshan log traced
 * (issue 35). Each file's DXT segments are replayed on sim-pfs under the six schemes of {@code pdla bench matrix}
 * ({@link WhatIfPrediction}); {@link DxtFileChoice} says per file which DXT module is used and what the log lacks.
 * Exit 0 when at least one file was predicted, 2 when nothing could be (unreadable log, no DXT, no file selected).
 */
@Command(name = "what-if", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Predict, from a Darshan log with DXT traces, what each replication scheme (Original, PD, H-PDLA, S-ORIG, "
                + "NS-PDLA, S-PDLA) would do for each file the application read or wrote: the patterns found, the layout each "
                + "scheme chooses and the read and write time on sim-pfs (virtual time), as 'pdla bench matrix' does for generated workloads.",
                "Reads and writes are replayed as two phases, each rank's requests back to back in DXT's order; a file with both "
                + "also gets each scheme's total (read + write) and the fastest scheme for the whole file."},
        footer = {"", "Example: pdla what-if run.darshan --file 'ckpt' --json what-if.json", ""})
public final class WhatIfCommand implements Callable<Integer> {
    private static final String NAME = "pdla what-if";

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "LOG", description = "a .darshan log written with DXT (DXT_ENABLE_IO_TRACE=1)")
    Path log;

    @Option(names = "--file", paramLabel = "PATTERN", converter = BenchCommand.RegexConverter.class,
            description = "Only the files whose path contains a match of PATTERN (a regular expression, case-insensitive); "
                    + "repeat for several.")
    List<Pattern> files = new ArrayList<>();

    @Option(names = "--hservers", paramLabel = "N", defaultValue = "8", description = "sim-pfs HDD servers (default ${DEFAULT-VALUE}).")
    int hservers;

    @Option(names = "--sservers", paramLabel = "M", defaultValue = "4", description = "sim-pfs SSD servers (default ${DEFAULT-VALUE}).")
    int sservers;

    @Option(names = "--ssd-space", paramLabel = "SIZE", defaultValue = "64g", converter = ByteSizeConverter.class,
            description = "SSD space S-PDLA may fill on each SServer (default ${DEFAULT-VALUE}).")
    long ssdSpace;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON to FILE (also when nothing can be predicted: then 'error' says why)")
    Path json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        if (hservers < 1) return usage(err, "--hservers must be at least 1 (Original, PD and H-PDLA use HServers), was " + hservers);
        if (sservers < 1) return usage(err, "--sservers must be at least 1 (S-ORIG, NS-PDLA and S-PDLA use SServers), was " + sservers);
        StringWriter readError = new StringWriter();
        DarshanLog read = DarshanCommand.readOrReport(log, NAME, new PrintWriter(readError, true));
        if (read == null) {
            String why = readError.toString().strip();
            err.println(why);
            return refused(err, why.startsWith(NAME + ": ") ? why.substring(NAME.length() + 2) : why, Map.of("log", log.toString()), List.of(), List.of());
        }
        SimPfsConfig config = SimPfsConfig.DEFAULT.toBuilder().hservers(hservers).sservers(sservers).extentLocks(false).build();
        Map<String, Object> header = header(read, config);
        DxtFileChoice.Inputs inputs = DxtFileChoice.of(read, log.toString());
        for (String n : inputs.logNotes()) err.println(NAME + ": warning: " + log + ": " + n);
        if (inputs.noDxt() != null) {
            err.println(NAME + ": " + inputs.noDxt());
            return refused(err, inputs.noDxt(), header, inputs.logNotes(), unpredicted(inputs.files()));
        }
        List<DxtFileChoice.FileInput> selected = inputs.files().stream()
                .filter(f -> files.isEmpty() || files.stream().anyMatch(p -> p.matcher(f.name()).find())).toList();
        if (selected.isEmpty()) {
            StringBuilder names = new StringBuilder();
            for (DxtFileChoice.FileInput f : inputs.files()) names.append("\n  ").append(f.name());
            String why = "--file " + files.stream().map(Pattern::pattern).toList() + " matches no file of " + log;
            err.println(NAME + ": " + why + "; its files are:" + names);
            return refused(err, why, header, inputs.logNotes(), List.of());
        }
        SchemeComparison comparison = new SchemeComparison(
                new SchemeComparison.Settings(config, SchemeComparison.calibrated(config), 0, ssdSpace));
        out.println("log: " + log + " (Darshan " + read.header().version() + ")");
        out.println("application: " + header.get("application") + " (" + header.get("processes") + " processes)");
        out.println("sim-pfs: " + hservers + " HServers + " + sservers + " SServers, original layout "
                + SchemeComparison.describe(config.defaultLayoutParsed()) + ", SSD space for S-PDLA " + ByteSize.format(ssdSpace)
                + " per SServer; times are virtual seconds of the file's requests issued back to back");
        out.flush();

        WhatIfPrediction predictor = new WhatIfPrediction(comparison);
        List<WhatIfReport.FileResult> results = new ArrayList<>();
        int predicted = 0;
        for (DxtFileChoice.FileInput f : selected) {
            if (!f.predictable()) {
                results.add(new WhatIfReport.FileResult(f, null, null));
                continue;
            }
            try {
                results.add(new WhatIfReport.FileResult(f, predictor.predict(read, f), null));
                predicted++;
            } catch (RuntimeException e) {
                // one file's odd segments (analysis or replay refusing them) must not cost the other files their prediction
                results.add(new WhatIfReport.FileResult(f, null, "its segments could not be replayed: " + e.getMessage()));
            }
        }
        WhatIfReport.text(results, out);
        String nothing = predicted == 0
                ? "nothing could be predicted: no selected file of " + log + " has usable DXT segments (reasons above)" : null;
        if (!writeJson(err, WhatIfReport.json(header, inputs.logNotes(), results), nothing)) return 2;
        if (nothing != null) {
            err.println(NAME + ": " + nothing);
            return 2;
        }
        return 0;
    }

    private static List<WhatIfReport.FileResult> unpredicted(List<DxtFileChoice.FileInput> files) {
        return files.stream().map(f -> new WhatIfReport.FileResult(f, null, null)).toList();
    }

    /**
     * Exit 2 for a log that gives no prediction; with --json the file is written all the same, saying why, so a
     * script that reads it never mistakes a refused log for a missing file or a stale one from an earlier run.
     */
    private int refused(PrintWriter err, String why, Map<String, Object> header, List<String> notes, List<WhatIfReport.FileResult> files) {
        writeJson(err, WhatIfReport.json(header, notes, files), why);
        return 2;
    }

    private boolean writeJson(PrintWriter err, Map<String, Object> tree, String error) {
        if (json == null) return true;
        if (error != null) tree.put("error", error);
        try {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), tree);
            return true;
        } catch (IOException e) {
            err.println(NAME + ": cannot write --json " + json + ": " + e.getMessage());
            return false;
        }
    }

    private Map<String, Object> header(DarshanLog read, SimPfsConfig config) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("log", log.toString());
        h.put("darshanVersion", read.header().version());
        h.put("application", read.job().exe().isBlank() ? "unknown (the log names no executable)" : read.job().exe());
        h.put("processes", read.job().nprocs());
        Map<String, Object> sim = new LinkedHashMap<>();
        sim.put("hservers", config.hservers());
        sim.put("sservers", config.sservers());
        sim.put("originalLayout", SchemeComparison.describe(config.defaultLayoutParsed()));
        sim.put("ssdBytesPerServer", ssdSpace);
        h.put("simPfs", sim);
        return h;
    }

    private static int usage(PrintWriter err, String message) {
        err.println(NAME + ": " + message);
        return 2;
    }
}
