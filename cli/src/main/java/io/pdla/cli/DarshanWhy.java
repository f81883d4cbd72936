package io.pdla.cli;

import io.pdla.darshan.DarshanLog;
import io.pdla.patterns.rootcause.FileIoStats;
import io.pdla.patterns.rootcause.RootCauseAnalyzer;
import io.pdla.patterns.rootcause.RootCauseReport;
import io.pdla.patterns.rootcause.RootCauseText;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/** {@code pdla why LOG.darshan}: the same sweep-line report as for pdla's traces, from a Darshan log's counters. */
final class DarshanWhy {
    private DarshanWhy() {}

    static int run(Path logPath, boolean json, int top, PrintWriter out, PrintWriter err) {
        DarshanLog log = DarshanCommand.readOrReport(logPath, "pdla why", err);
        if (log == null) return 2;
        if (log.firstError() != null) err.println("pdla why: warning: " + log.firstError().getMessage() + "; using what was read");
        List<FileIoStats> files = DarshanFileStats.collect(log);
        DarshanFileStats.IoMode mode = DarshanFileStats.mode(files, log.job().nprocs());
        if (files.isEmpty()) {
            out.println("Darshan log " + logPath.getFileName() + ": " + log.job().nprocs() + " processes, exe "
                    + log.job().exe());
            out.println("I/O mode: " + mode.label + " (no POSIX record moved data)");
            out.flush();
            return 0;
        }
        RootCauseReport report;
        try {
            report = RootCauseAnalyzer.analyze(files, DarshanFileStats.bytesByRank(log));
        } catch (IllegalArgumentException e) {
            err.println("pdla why: " + e.getMessage());
            return 2;
        }
        if (json) {
            out.println(RootCauseText.json(report));
        } else {
            out.println("Darshan log " + logPath.getFileName() + ": " + log.job().nprocs() + " processes, exe "
                    + log.job().exe());
            out.println("(intervals from POSIX timestamps, each relative to its own process's Darshan start; "
                    + "counters from POSIX, MPI-IO and LUSTRE records)");
            out.print(RootCauseText.text(report, top));
        }
        out.flush();
        return 0;
    }
}
