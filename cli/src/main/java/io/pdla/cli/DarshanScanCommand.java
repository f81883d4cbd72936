package io.pdla.cli;

import io.pdla.darshan.DarshanFormatException;
import io.pdla.darshan.DarshanLog;
import io.pdla.darshan.DarshanReader;
import io.pdla.darshan.ModuleData;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code pdla darshan scan DIR}: reads every {@code *.darshan} under DIR with a progress bar and summarizes the
 * collection (formats, modules, processes, damaged logs with the region and offset where they break).
 */
@Command(name = "scan", mixinStandardHelpOptions = true, description = "Read every .darshan log under DIR and summarize them.")
final class DarshanScanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR")
    Path dir;

    @Option(names = "--no-progress", description = "no progress bar (for logs and CI)")
    boolean noProgress;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        if (!Files.isDirectory(dir)) {
            err.println("pdla darshan scan: " + dir + " is not a directory");
            return 2;
        }
        List<Path> logs;
        try (Stream<Path> s = Files.walk(dir)) {
            logs = s.filter(p -> p.toString().endsWith(".darshan") && Files.isRegularFile(p)).sorted().toList();
        } catch (IOException e) {
            err.println("pdla darshan scan: cannot list " + dir + ": " + e.getMessage());
            return 2;
        }
        Map<String, Integer> versions = new TreeMap<>(), modules = new TreeMap<>();
        Map<Path, String> damaged = new TreeMap<>();
        long bytes = 0, records = 0, incomplete = 0;
        DarshanReader reader = new DarshanReader();
        long t0 = System.nanoTime();
        ProgressBarBuilder pbb = new ProgressBarBuilder().setTaskName("scan").setInitialMax(logs.size())
                .setStyle(ProgressBarStyle.ASCII).setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err));
        try (ProgressBar pb = noProgress ? null : pbb.build()) {
            for (Path p : logs) {
                try {
                    DarshanLog log = reader.read(p);
                    versions.merge(log.header().version(), 1, Integer::sum);
                    for (ModuleData m : log.modules()) {
                        modules.merge(m.module() == null ? "id " + m.index() : m.module().label(), 1, Integer::sum);
                        records += m.records().size();
                        if (m.partial()) incomplete++;
                    }
                    bytes += log.uncompressedRecordBytes();
                    if (log.firstError() != null) damaged.put(p, log.firstError().getMessage());
                } catch (DarshanFormatException e) {
                    damaged.put(p, e.getMessage());
                } catch (IOException e) {
                    damaged.put(p, "cannot read: " + e.getMessage());
                }
                if (pb != null) pb.step();
            }
        }
        double s = (System.nanoTime() - t0) / 1e9;
        out.printf("logs: %d, readable: %d, damaged: %d, modules with incomplete data: %d%n", logs.size(),
                logs.size() - damaged.size(), damaged.size(), incomplete);
        out.printf("records: %d, uncompressed record data: %d bytes, %.1f s (%.1f MB/s)%n", records, bytes, s,
                s > 0 ? bytes / 1e6 / s : 0);
        out.println("format versions: " + versions);
        out.println("logs per module: " + modules);
        damaged.forEach((p, why) -> out.println("damaged: " + p + ": " + why));
        out.flush();
        return damaged.isEmpty() ? 0 : 2;
    }
}
