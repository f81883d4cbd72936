package io.pdla.bench.ior;

import mpi.Intracomm;
import mpi.MPI;

import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The MPJ program: every rank parses the IOR options, runs {@link IorEngine} over the selected backends
 * and rank 0 prints the results. Exit status: 0 success, 1 I/O error, 2 bad options, 3 verify failed.
 * Launch it with {@link IorLauncher} (or {@code pdla bench ior}).
 */
public final class IorMain {
    public static final int EXIT_IO_ERROR = 1;
    public static final int EXIT_BAD_OPTIONS = 2;
    public static final int EXIT_VERIFY_FAILED = 3;

    private IorMain() {
    }

    public static void main(String[] argv) throws Exception {
        io.pdla.mpiio.launch.RankWarmup.start();   // as pdla run's ranks do (RankMain)
        String[] args = MPI.Init(argv);
        Intracomm world = MPI.COMM_WORLD;
        List<String> list = Arrays.asList(args);
        int status = run(world, list);
        // Every rank knows the status (errors and verification are agreed by collectives). MPJ's starter
        // exits 0 whatever the ranks do, so rank 0 leaves it in the launcher's status file.
        if (world.Rank() == 0) writeStatus(list, status);
        MPI.Finalize();
    }

    /** The value of the hidden --status-file option, found without parsing (parsing may be what failed). */
    private static void writeStatus(List<String> args, int status) throws java.io.IOException {
        int i = args.indexOf(STATUS_OPTION);
        if (i >= 0 && i + 1 < args.size()) java.nio.file.Files.writeString(Path.of(args.get(i + 1)), Integer.toString(status));
    }

    static final String STATUS_OPTION = "--status-file";

    static int run(Intracomm world, List<String> args) throws Exception {
        int rank = world.Rank();
        IorOptions o;
        try {
            o = IorOptions.parse(args);
        } catch (IorOptions.BadOptionException e) {
            // all ranks parse the same arguments, so all of them stop here
            if (rank == 0) System.err.println("pdla bench ior: " + e.getMessage());
            return EXIT_BAD_OPTIONS;
        }
        if (o.help()) {
            if (rank == 0) System.out.print(IorOptions.usage());
            return 0;
        }
        IorFileView view = null;
        try {
            if (o.fileView()) view = IorFileView.of(o, world.Size());
        } catch (IllegalArgumentException e) {
            if (rank == 0) System.err.println("pdla bench ior: " + e.getMessage());
            return EXIT_BAD_OPTIONS;
        }
        List<IorBackend> backends = new ArrayList<>();
        if (o.api() == IorOptions.Api.MPIIO) {
            MpiioBackend shim = new MpiioBackend(world, o.collective(), Reports.SHIM, o.hints(), view);
            backends.add(shim);
            // the same pattern through independent calls, in the same run, as the collective calls' yardstick
            if (o.collective()) backends.add(shim.independent(Reports.INDEPENDENT));
            if (o.tracedDir() != null) backends.add(shim.traced(o.tracedDir()));
            if (o.redirectCatalog() != null) backends.add(shim.redirected(o.redirectCatalog()));
        }
        if (o.api() == IorOptions.Api.POSIX || o.baseline()) backends.add(new PosixBaselineBackend());

        List<ResultSink> sinks = new ArrayList<>(List.of(new TextSink(System.out)));
        if (o.json() != null) sinks.add(new JsonSink(Path.of(o.json())));
        RunInfo info = runInfo(o, args, world.Size(), backends);
        IorReport report = new IorEngine(o, world, backends, new Sinks(sinks)).run(info);
        if (!report.errors().isEmpty()) return EXIT_IO_ERROR;
        if (!report.verification().passed()) return EXIT_VERIFY_FAILED;
        return 0;
    }

    private static RunInfo runInfo(IorOptions o, List<String> args, int np, List<IorBackend> backends) {
        Layout layout = Layout.of(o, np);
        List<String> shown = new ArrayList<>(args);
        int i = shown.indexOf(STATUS_OPTION);
        if (i >= 0) shown.subList(i, Math.min(i + 2, shown.size())).clear();
        return new RunInfo(ZonedDateTime.now().format(DateTimeFormatter.RFC_1123_DATE_TIME), List.copyOf(shown),
                o.api().name(), backends.stream().map(IorBackend::name).toList(),
                backends.stream().map(IorBackend::description).toList(), np, o.path(), o.filePerProcess(),
                o.collective(), o.reorder(), o.fsync(), o.verify(), o.transferSize(), o.blockSize(), o.segments(),
                layout.aggregateBytes(), o.iterations());
    }

    /** Fans results out to several sinks (text and JSON). */
    private record Sinks(List<ResultSink> all) implements ResultSink {
        @Override
        public void header(RunInfo run) throws java.io.IOException {
            for (ResultSink s : all) s.header(run);
        }

        @Override
        public void point(IterationPoint point) throws java.io.IOException {
            for (ResultSink s : all) s.point(point);
        }

        @Override
        public void finish(IorReport report) throws java.io.IOException {
            for (ResultSink s : all) s.finish(report);
        }
    }
}
