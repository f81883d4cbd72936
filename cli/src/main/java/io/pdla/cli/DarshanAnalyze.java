package io.pdla.cli;

import io.pdla.darshan.DarshanLog;
import io.pdla.darshan.ParserReport;
import io.pdla.patterns.AnalysisReport;
import io.pdla.patterns.Analyzer;
import io.pdla.patterns.ReportText;
import io.pdla.patterns.TraceInputException;
import io.pdla.patterns.db.PatternDatabase;
import io.pdla.patterns.db.PatternDatabaseException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.ZoneId;

/**
 * {@code pdla analyze LOG.darshan [--db DIR]}: DXT segments go through the same analyzer and pattern database as
 * pdla's own traces. A log without DXT cannot give patterns; it gets the counter summary (darshan-parser --perf).
 */
final class DarshanAnalyze {
    private DarshanAnalyze() {}

    static int run(Path logPath, Path db, int maxLocals, PrintWriter out, PrintWriter err) {
        DarshanLog log = DarshanCommand.readOrReport(logPath, "pdla analyze", err);
        if (log == null) return 2;
        if (log.firstError() != null) err.println("pdla analyze: warning: " + log.firstError().getMessage() + "; using what was read");
        DarshanTraceSource source = new DarshanTraceSource(log);
        if (!source.hasDxt()) {
            out.println("pdla analyze: " + logPath.getFileName() + " has no DXT trace (run with DXT_ENABLE_IO_TRACE=1): "
                    + "access patterns need DXT segments. Counter summary:");
            StringBuilder text = new StringBuilder();
            try {
                new ParserReport(text, new StringBuilder(), ZoneId.systemDefault())
                        .print(log, new ParserReport.Options(false, false, true, true, true));
            } catch (ParserReport.IncompleteLogException e) {
                throw new IllegalStateException("show-incomplete was given", e);
            }
            out.print(text);
            out.flush();
            return 0;
        }
        AnalysisReport report;
        try {
            report = new Analyzer().analyze(source);
        } catch (TraceInputException | IllegalArgumentException e) {
            err.println("pdla analyze: " + logPath + ": " + e.getMessage());
            return 2;
        }
        out.println("DXT source: " + source.used.label() + ", application: " + source.job().app().command() + " ("
                + source.job().app().processes() + " processes)");
        for (String w : source.warnings()) err.println("pdla analyze: warning: " + w);
        return AnalyzeCommand.printAndStore(report, maxLocals, db, out, err);
    }
}
