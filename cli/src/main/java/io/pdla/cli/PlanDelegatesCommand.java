package io.pdla.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code pdla plan-delegates}: DFRA's decision for a job from the pattern database of its earlier runs. */
@Command(name = "plan-delegates", mixinStandardHelpOptions = true,
        description = {"Decides, from earlier runs in the pattern database, whether a job gets no I/O delegates, S = N_A / F of them, "
                + "or dedicated ones (DFRA, FAST 2019). Settings: PDLA_DFRA_V_MIN_BYTES, PDLA_DFRA_N_MIN, PDLA_DFRA_F, "
                + "PDLA_DFRA_W_METADATA, PDLA_DFRA_PROCESSES_PER_DEFAULT_DELEGATE, PDLA_DFRA_HIGH_IOPS_REQUESTS.",
                "Exit 0 decided, 2 bad input."})
public final class PlanDelegatesCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--db", required = true, description = "The pattern database.")
    Path db;

    @Option(names = "--app", required = true, description = "The application's command line, as pdla run records it (main class and arguments).")
    String app;

    @Option(names = "-np", required = true, description = "Number of application processes.")
    int processes;

    @Option(names = "--neighbour", description = "A job sharing the default resources, as COMMAND@NP (repeatable).")
    List<String> neighbours = new ArrayList<>();

    @Option(names = "--idle", defaultValue = "2147483647", description = "Delegates that can be granted (I). Default: unbounded.")
    int idle;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        if (processes <= 0) {
            err.println("pdla plan-delegates: -np must be > 0, was " + processes);
            return 2;
        }
        try {
            DelegatePlan.Plan plan = DelegatePlan.decide(db, app, processes, neighbours, idle);
            plan.history().ifPresent(h -> out.println("history: " + h.totalBytes() + " bytes, " + h.requests() + " requests, "
                    + h.ioProcesses() + " I/O processes, mode " + h.mode()));
            out.println("decision: " + plan.decision().kind().name().toLowerCase());
            out.println("delegates: " + plan.decision().delegates());
            out.println("reason: " + plan.decision().reason());
            return 0;
        } catch (RuntimeException e) {   // bad neighbour text, no database there, damaged database
            err.println("pdla plan-delegates: " + e.getMessage());
            return 2;
        }
    }
}
