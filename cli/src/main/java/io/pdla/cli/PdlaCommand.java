package io.pdla.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code pdla} command. Each subcommand is a thin class over its module; {@code ./pdla} (the script at
 * the repository root) installs what is missing and then runs this jar.
 */
@Command(name = "pdla", mixinStandardHelpOptions = true, versionProvider = PdlaCommand.Version.class,
        description = "MPI-IO for MPJ Express with pattern-directed, layout-aware replication.",
        subcommands = {
                DemoCommand.class,
                RunCommand.class,
                HostsCommand.class,
                PlanDelegatesCommand.class,
                BenchCommand.class,
                CostCommand.class,
                SimCommand.class,
                TraceCommand.class,
                CountersCommand.class,
                AnalyzeCommand.class,
                PatternsCommand.class,
                WhyCommand.class,
                WhatIfCommand.class,
                ReportCommand.class,
                DarshanCommand.class,
                LogsCommand.class,
                QueryCommand.class,
                DaemonCommand.class,
                ReplicasCommand.class,
                SyncCommand.class,
                CommandLine.HelpCommand.class
        })
public final class PdlaCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static CommandLine commandLine() {
        return new CommandLine(new PdlaCommand()).setCaseInsensitiveEnumValuesAllowed(true);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = PdlaCommand.class.getPackage().getImplementationVersion();
            return new String[]{"pdla " + (v == null ? "0.1.0-SNAPSHOT" : v)};
        }
    }
}
