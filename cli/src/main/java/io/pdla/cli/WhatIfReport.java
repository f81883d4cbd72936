package io.pdla.cli;

import io.pdla.bench.schemes.Scheme;
import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.global.GlobalPattern;
import io.pdla.patterns.template.LocalPattern;
import io.pdla.patterns.template.Notation;
import io.pdla.size.ByteSize;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** {@code pdla what-if}'s results as text (per file: patterns, each scheme's layout and times) and as a JSON tree. */
final class WhatIfReport {
    /** Local patterns printed per phase beyond the global ones; the JSON has them all. */
    static final int LOCALS_SHOWN = 8;
    /** Ranks' own patterns printed under the global patterns they make up. */
    static final int RANK_SHAPES_SHOWN = 4;

    /** A file that was looked at: predicted ({@code prediction} set) or not ({@code input.missing()} says why). */
    record FileResult(DxtFileChoice.FileInput input, WhatIfPrediction.FilePrediction prediction, String failure) {}

    private WhatIfReport() {}

    /** Names printed per reason a file was not predicted; the JSON has them all. */
    static final int UNPREDICTED_SHOWN = 20;

    static void text(List<FileResult> files, PrintWriter out) {
        // a run with a file per rank can have thousands of files without DXT for the same reason: one list per reason
        Map<String, List<FileResult>> unpredicted = new LinkedHashMap<>();
        for (FileResult f : files) {
            if (f.prediction() == null) {
                unpredicted.computeIfAbsent(f.failure() != null ? f.failure() : f.input().missing(), k -> new ArrayList<>()).add(f);
                continue;
            }
            out.println();
            WhatIfPrediction.FilePrediction p = f.prediction();
            out.println("file " + f.input().name() + " (" + f.input().dxt().module().label() + " segments of " + p.ranks()
                    + (p.ranks() == 1 ? " rank)" : " ranks)"));
            for (String n : f.input().notes()) out.println("  note: " + n);
            phaseText("reads", p.read(), out);
            phaseText("writes", p.write(), out);
            if (p.mixed()) {
                out.println("  note: " + p.order().describe());
                out.printf(Locale.ROOT, "  %-9s %12s %12s %12s  %-34s %s%n", "scheme", "read time", "write time", "total",
                        "layout for reads", "layout for writes");
            } else {
                out.printf(Locale.ROOT, "  %-9s %12s %12s  %-34s %s%n", "scheme", "read time", "write time", "layout for reads", "layout for writes");
            }
            for (Scheme s : Scheme.values()) {
                WhatIfPrediction.SchemeOutcome r = outcome(p.read(), s), w = outcome(p.write(), s);
                String times = p.mixed()
                        ? String.format(Locale.ROOT, "%12s %12s %12s", seconds(r), seconds(w), seconds(p.totalSeconds(s)))
                        : String.format(Locale.ROOT, "%12s %12s", seconds(r), seconds(w));
                out.printf(Locale.ROOT, "  %-9s %s  %-34s %s%n", s.label(), times, r == null ? "-" : r.layout(), w == null ? "-" : w.layout());
            }
            best("reads", p.read(), out);
            best("writes", p.write(), out);
            if (p.mixed()) bestTotal(p, out);
        }
        unpredicted.forEach((why, list) -> {
            out.println();
            out.println("NOT PREDICTED (" + list.size() + " file" + (list.size() == 1 ? "" : "s") + "): " + why);
            int shown = 0;
            for (FileResult f : list) {
                if (shown++ == UNPREDICTED_SHOWN) {
                    out.println("  ... " + (list.size() - UNPREDICTED_SHOWN) + " more (--json lists them all)");
                    break;
                }
                out.println("  " + f.input().name());
                for (String n : f.input().notes()) out.println("    note: " + n);
            }
        });
        out.flush();
    }

    private static void phaseText(String what, WhatIfPrediction.PhaseOutcome ph, PrintWriter out) {
        if (ph == null) {
            out.println("  " + what + ": none");
            return;
        }
        AnalysisReport a = ph.analysis();
        out.println("  " + what + ": " + ph.requests() + " requests, " + ByteSize.format(ph.bytes()) + "; patterns explain "
                + a.total() + "; replicated patterns: " + ph.replicatedPatterns());
        for (GlobalPattern g : a.globals()) out.println("    " + g.kind() + " " + g.notation());
        if (!a.globals().isEmpty()) {
            // a global pattern can hide each rank's own shape (IOR's interleaved strides add up to one contiguous range)
            Set<LocalPattern> only = new HashSet<>(a.localOnly());
            List<LocalPattern> covered = a.locals().stream().filter(l -> !only.contains(l)).toList();
            int n = 0;
            for (LocalPattern l : covered) {
                if (n++ == RANK_SHAPES_SHOWN) {
                    out.println("      ... " + (covered.size() - RANK_SHAPES_SHOWN) + " more ranks' patterns (--json lists them all)");
                    break;
                }
                out.println("      " + (n == 1 ? "per rank: " : "          ") + l.kind() + " rank " + l.rank() + " " + Notation.local(l));
            }
        }
        int shown = 0;
        for (LocalPattern l : a.localOnly()) {
            if (shown++ == LOCALS_SHOWN) {
                out.println("    ... " + (a.localOnly().size() - LOCALS_SHOWN) + " more local patterns (--json lists them all)");
                break;
            }
            out.println("    " + l.kind() + " rank " + l.rank() + " " + Notation.local(l));
        }
        if (a.globals().isEmpty() && a.localOnly().isEmpty()) {
            out.println("    no pattern (the analyzer needs at least 3 requests of a rank that follow one template)");
        }
        for (String n : ph.notes()) out.println("    note: " + n);
    }

    private static void best(String what, WhatIfPrediction.PhaseOutcome ph, PrintWriter out) {
        if (ph == null) return;
        double t = Double.POSITIVE_INFINITY;
        for (WhatIfPrediction.SchemeOutcome o : ph.schemes().values()) t = Math.min(t, o.seconds());
        double original = ph.schemes().get(Scheme.ORIGINAL).seconds();
        if (original <= t) {
            out.printf(Locale.ROOT, "  fastest for %s: Original, %.4g s (no scheme beats the original layout)%n", what, original);
            return;
        }
        List<String> best = new ArrayList<>();
        for (Scheme s : Scheme.values()) if (ph.schemes().get(s).seconds() == t) best.add(s.label());
        out.printf(Locale.ROOT, "  fastest for %s: %s, %.4g s (%.2fx faster than Original)%n", what, String.join(" and ", best), t, original / t);
    }

    /** One scheme serves a file's reads and its writes alike: which one gives the smallest sum. */
    private static void bestTotal(WhatIfPrediction.FilePrediction p, PrintWriter out) {
        double t = Double.POSITIVE_INFINITY;
        for (Scheme s : Scheme.values()) t = Math.min(t, p.totalSeconds(s));
        double original = p.totalSeconds(Scheme.ORIGINAL);
        if (original <= t) {
            out.printf(Locale.ROOT, "  fastest for the whole file (reads + writes): Original, %.4g s (no scheme beats the original layout)%n", original);
            return;
        }
        List<String> best = new ArrayList<>();
        for (Scheme s : Scheme.values()) if (p.totalSeconds(s) == t) best.add(s.label());
        out.printf(Locale.ROOT, "  fastest for the whole file (reads + writes): %s, %.4g s (%.2fx faster than Original)%n",
                String.join(" and ", best), t, original / t);
    }

    private static WhatIfPrediction.SchemeOutcome outcome(WhatIfPrediction.PhaseOutcome ph, Scheme s) {
        return ph == null ? null : ph.schemes().get(s);
    }

    private static String seconds(WhatIfPrediction.SchemeOutcome o) {
        return o == null ? "-" : seconds(o.seconds());
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.4g s", s);
    }

    /** The results as a tree of maps and lists for Jackson. */
    static Map<String, Object> json(Map<String, Object> header, List<String> logNotes, List<FileResult> files) {
        Map<String, Object> root = new LinkedHashMap<>(header);
        root.put("notes", logNotes);
        List<Object> list = new ArrayList<>();
        for (FileResult f : files) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("file", f.input().name());
            m.put("recordId", Long.toUnsignedString(f.input().id()));
            m.put("predicted", f.prediction() != null);
            if (f.prediction() == null) m.put("missing", f.failure() != null ? f.failure() : f.input().missing());
            m.put("notes", f.input().notes());
            if (f.prediction() != null) {
                m.put("dxtModule", f.input().dxt().module().label());
                m.put("ranksWithSegments", f.prediction().ranks());
                m.put("read", phaseJson(f.prediction().read()));
                m.put("write", phaseJson(f.prediction().write()));
                if (f.prediction().mixed()) m.put("readsAndWrites", mixedJson(f.prediction()));
            }
            list.add(m);
        }
        root.put("predictedFiles", files.stream().filter(f -> f.prediction() != null).count());
        root.put("files", list);
        return root;
    }

    private static Object mixedJson(WhatIfPrediction.FilePrediction p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("note", p.order().describe());
        m.put("readWriteSwitches", p.order().switches());
        m.put("readsAfterFirstWrite", p.order().readsAfterFirstWrite());
        Map<String, Object> total = new LinkedHashMap<>();
        for (Scheme s : Scheme.values()) total.put(s.label(), p.totalSeconds(s));
        m.put("totalSeconds", total);
        return m;
    }

    private static Object phaseJson(WhatIfPrediction.PhaseOutcome ph) {
        if (ph == null) return null;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("requests", ph.requests());
        m.put("bytes", ph.bytes());
        m.put("requestCoverage", ph.analysis().total().requestFraction());
        List<Object> patterns = new ArrayList<>();
        for (GlobalPattern g : ph.analysis().globals()) patterns.add(Map.of("scope", "global", "kind", g.kind().name(), "notation", g.notation()));
        for (LocalPattern l : ph.analysis().localOnly()) {
            patterns.add(Map.of("scope", "rank " + l.rank(), "kind", l.kind().name(), "notation", Notation.local(l)));
        }
        m.put("patterns", patterns);
        // every rank's own pattern, also those a global pattern stands for (the text shows only the global one)
        List<Object> rankPatterns = new ArrayList<>();
        for (LocalPattern l : ph.analysis().locals()) {
            rankPatterns.add(Map.of("rank", l.rank(), "kind", l.kind().name(), "notation", Notation.local(l)));
        }
        m.put("rankPatterns", rankPatterns);
        m.put("replicatedPatterns", ph.replicatedPatterns());
        Map<String, Object> schemes = new LinkedHashMap<>();
        ph.schemes().forEach((s, o) -> schemes.put(s.label(), Map.of("seconds", o.seconds(), "mibPerSecond", o.mibPerSecond(), "layout", o.layout())));
        m.put("schemes", schemes);
        m.put("notes", ph.notes());
        return m;
    }
}
