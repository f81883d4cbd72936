package io.pdla.bench.ior;

import io.pdla.size.ByteSize;
import java.io.PrintStream;
import java.util.Locale;

/** IOR-like text: a header, one line per phase as it ends, then the Max lines, the summary table and the ratio. */
public final class TextSink implements ResultSink {
    private final PrintStream out;

    public TextSink(PrintStream out) {
        this.out = out;
    }

    @Override
    public void header(RunInfo r) {
        out.println("IOR-style benchmark (pdla bench ior)");
        row("Began", r.began());
        row("Command line", String.join(" ", r.arguments()));
        row("api", r.api() + (r.collective() ? " (collective)" : " (independent)"));
        for (int i = 0; i < r.backends().size(); i++) row("backend " + (i + 1), r.backends().get(i) + ": " + r.backendDescriptions().get(i));
        row("test filename", r.path());
        row("access", r.filePerProcess() ? "file-per-process" : "single-shared-file");
        row("ordering inter file", r.reorder() ? "constant task offset (1)" : "no tasks offsets");
        row("tasks", Integer.toString(r.tasks()));
        row("xfersize", ByteSize.format(r.transferSize()));
        row("blocksize", ByteSize.format(r.blockSize()));
        row("segments", Integer.toString(r.segments()));
        row("aggregate filesize", ByteSize.format(r.aggregateBytes()));
        row("fsync after write", r.fsync() ? "yes" : "no");
        row("verify read data", r.verify() ? "yes" : "no");
        row("iterations", Integer.toString(r.iterations()));
        out.println();
        out.printf(Locale.ROOT, "%-8s %-15s %12s %12s %10s %10s %10s %10s %10s %5s%n", "access", "backend", "bw(MiB/s)", "bw(MB/s)",
                "xfer-ops", "open(s)", "wr/rd(s)", "close(s)", "total(s)", "iter");
        out.printf(Locale.ROOT, "%-8s %-15s %12s %12s %10s %10s %10s %10s %10s %5s%n", "------", "-------", "---------", "--------",
                "--------", "-------", "--------", "--------", "--------", "----");
        out.flush();
    }

    private void row(String key, String value) {
        out.printf(Locale.ROOT, "%-20s: %s%n", key, value);
    }

    @Override
    public void point(IterationPoint p) {
        out.printf(Locale.ROOT, "%-8s %-15s %12.2f %12.2f %10d %10.4f %10.4f %10.4f %10.4f %5d%n", p.operation(), p.backend(),
                p.mibPerSec(), p.mbPerSec(), p.ops(), p.openSeconds(), p.transferSeconds(), p.closeSeconds(), p.seconds(), p.iteration());
        out.flush();
    }

    @Override
    public void finish(IorReport report) {
        String current = null;
        for (Summary s : report.summaries()) {
            if (!s.backend().equals(current)) {
                current = s.backend();
                out.println();
                out.println("Results (" + current + "):");
            }
            String op = s.operation().substring(0, 1).toUpperCase(Locale.ROOT) + s.operation().substring(1);
            out.printf(Locale.ROOT, "Max %s: %.2f MiB/sec (%.2f MB/sec)%n", op, s.maxMiBps(), s.maxMBps());
        }
        out.println();
        out.println("Summary of all tests:");
        out.printf(Locale.ROOT, "%-9s %-15s %10s %10s %10s %9s %11s %9s %10s %10s %10s %6s %6s%n", "Operation", "Backend", "Max(MiB)",
                "Min(MiB)", "Mean(MiB)", "StdDev", "Mean(OPs)", "Ops", "Mean(s)", "open(s)", "close(s)", "#Tasks", "iters");
        for (Summary s : report.summaries()) {
            out.printf(Locale.ROOT, "%-9s %-15s %10.2f %10.2f %10.2f %9.2f %11.2f %9d %10.5f %10.5f %10.5f %6d %6d%n", s.operation(),
                    s.backend(), s.maxMiBps(), s.minMiBps(), s.meanMiBps(), s.stddevMiBps(), s.meanOpsPerSec(), s.opsPerIteration(),
                    s.meanSeconds(), s.meanOpenSeconds(), s.meanCloseSeconds(), report.run().tasks(), s.iterations());
        }
        if (report.writeRatio() != null || report.readRatio() != null) {
            out.println();
            out.println("shim/baseline ratio: write " + fmt(report.writeRatio()) + ", read " + fmt(report.readRatio())
                    + " (mean bandwidth; of max: write " + fmt(report.writeRatioOfMax()) + ", read " + fmt(report.readRatioOfMax()) + ")");
            out.println("shim/baseline ratio without open/close: write " + fmt(report.writeTransferRatio()) + ", read " + fmt(report.readTransferRatio()));
        }
        if (report.tracedWriteRatio() != null || report.tracedReadRatio() != null) {
            out.println("traced/untraced ratio: write " + fmt(report.tracedWriteRatio()) + ", read " + fmt(report.tracedReadRatio()));
            out.println("traced/untraced ratio without open/close: write " + fmt(report.tracedWriteTransferRatio()) + ", read " + fmt(report.tracedReadTransferRatio()));
        }
        if (report.collectiveWriteRatio() != null || report.collectiveReadRatio() != null) {
            out.println("collective/independent ratio: write " + fmt(report.collectiveWriteRatio()) + ", read " + fmt(report.collectiveReadRatio()));
        }
        if (report.redirectedWriteRatio() != null || report.redirectedReadRatio() != null) {
            out.println("redirected/plain ratio (no replica applies): write " + fmt(report.redirectedWriteRatio()) + ", read " + fmt(report.redirectedReadRatio()));
        }
        for (IorReport.PairedRatio r : report.paired()) {
            out.printf(Locale.ROOT, "%s/%s %s, iteration by iteration: median %.3f (range %.3f-%.3f, %d iterations)%n",
                    r.numerator(), r.denominator(), r.operation(), r.median(), r.min(), r.max(), r.iterations());
        }
        IorReport.Verification v = report.verification();
        if (v.enabled()) {
            out.println(v.passed() ? "verify: passed, " + v.transfersChecked() + " transfers checked"
                    : "verify: FAILED, " + v.badTransfers() + " of " + v.transfersChecked() + " transfers differ");
        }
        for (String e : report.errors()) out.println("ERROR: " + e);
        out.println(report.succeeded() ? "Finished: OK" : "Finished: FAILED");
        out.flush();
    }

    private static String fmt(Double d) {
        return d == null ? "n/a" : String.format(Locale.ROOT, "%.3f", d);
    }
}
