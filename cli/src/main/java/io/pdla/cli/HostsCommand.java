package io.pdla.cli;

import io.pdla.hosts.NamespaceHosts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pdla hosts up|down|exec}: test and demo hosts on one machine (network namespaces on a bridge of their
 * own; see docs/cluster.md). {@code up} records what it made in a state file, {@code down} removes exactly
 * that, {@code exec} runs a command on one host with its hostname, as every process of a multi-host run must.
 */
@Command(name = "hosts", mixinStandardHelpOptions = true,
        description = "Make, use and remove test hosts (Linux network namespaces; needs root, ip, tc, unshare).",
        subcommands = {HostsCommand.Up.class, HostsCommand.Down.class, HostsCommand.Exec.class})
public final class HostsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    static final String DEFAULT_STATE = "pdla-hosts.state";

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 0;
    }

    @Command(name = "up", mixinStandardHelpOptions = true, description = "Make N hosts on a sealed-off bridge; write their state and a machines file.",
            footer = {"", "Example: pdla hosts up 3 && pdla hosts exec 1 -- ./pdla run -np 6 --dev niodev --machines pdla-hosts.machines -- Main"})
    static final class Up implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "N", description = "Number of hosts (1-250).")
        int count;

        @Option(names = "--rate", defaultValue = NamespaceHosts.DEFAULT_RATE, description = "Each link's rate per direction (tc syntax). Default: ${DEFAULT-VALUE}.")
        String rate;

        @Option(names = "--delay", defaultValue = NamespaceHosts.DEFAULT_DELAY,
                description = "Each link's delay per direction (needs the kernel's netem; said when missing). Default: ${DEFAULT-VALUE}.")
        String delay;

        @Option(names = "--prefix", defaultValue = "pdla-", description = "Start of the hosts' names. Default: ${DEFAULT-VALUE}.")
        String prefix;

        @Option(names = "--state", defaultValue = DEFAULT_STATE, description = "Where to record what was made. Default: ${DEFAULT-VALUE}.")
        Path state;

        @Option(names = "--machines", defaultValue = "pdla-hosts.machines", description = "Machines file to write (one hostname a line). Default: ${DEFAULT-VALUE}.")
        Path machines;

        @Override
        public Integer call() throws IOException {
            PrintWriter err = spec.commandLine().getErr();
            if (Files.exists(state)) {
                err.println("pdla hosts up: " + state + " exists: run `pdla hosts down --state " + state + "` first, or give another --state");
                return 2;
            }
            NamespaceHosts hosts;
            try {
                hosts = NamespaceHosts.up(prefix, count, rate, delay);
            } catch (IllegalArgumentException | IllegalStateException e) {
                err.println("pdla hosts up: " + e.getMessage());
                return 2;
            }
            try {
                hosts.save(state);
                Files.writeString(machines, hosts.machines());
            } catch (IOException | RuntimeException e) {
                hosts.close();
                throw e;
            }
            PrintWriter out = spec.commandLine().getOut();
            for (NamespaceHosts.Host h : hosts.hosts()) out.println(h.index() + " " + h.name() + " " + h.address());
            out.println("subnet " + hosts.subnet() + ", links " + hosts.rate() + (hosts.delayApplied() ? ", " + hosts.delay() : "")
                    + "; state " + state + ", machines " + machines);
            if (!hosts.delayApplied()) err.println("pdla hosts up: this kernel has no netem qdisc: links are rate-shaped, the delay of " + delay + " is not applied");
            return 0;
        }
    }

    @Command(name = "down", mixinStandardHelpOptions = true, description = "Remove the hosts of a state file (and stop what still runs on them).")
    static final class Down implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--state", defaultValue = DEFAULT_STATE, description = "State file of `pdla hosts up`. Default: ${DEFAULT-VALUE}.")
        Path state;

        @Override
        public Integer call() throws IOException {
            if (!Files.isRegularFile(state)) {
                spec.commandLine().getErr().println("pdla hosts down: no state file " + state);
                return 2;
            }
            NamespaceHosts hosts = NamespaceHosts.load(state);
            hosts.close();
            Files.delete(state);
            spec.commandLine().getOut().println("removed " + hosts.hosts().size() + " hosts of " + hosts.run());
            return 0;
        }
    }

    @Command(name = "exec", mixinStandardHelpOptions = true, description = "Run a command on one host (its network, /etc/hosts and hostname).")
    static final class Exec implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--state", defaultValue = DEFAULT_STATE, description = "State file of `pdla hosts up`. Default: ${DEFAULT-VALUE}.")
        Path state;

        @Parameters(index = "0", paramLabel = "HOST", description = "The host: its number (1..N) or name.")
        String host;

        @Parameters(index = "1..*", paramLabel = "CMD", description = "The command and its arguments (after --).")
        List<String> command = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            PrintWriter err = spec.commandLine().getErr();
            if (!Files.isRegularFile(state)) {
                err.println("pdla hosts exec: no state file " + state);
                return 2;
            }
            if (command.isEmpty()) {
                err.println("pdla hosts exec: no command");
                return 2;
            }
            NamespaceHosts hosts = NamespaceHosts.load(state);
            NamespaceHosts.Host h = null;
            for (NamespaceHosts.Host c : hosts.hosts()) {
                if (c.name().equals(host) || Integer.toString(c.index()).equals(host)) h = c;
            }
            if (h == null) {
                err.println("pdla hosts exec: no host '" + host + "' in " + state);
                return 2;
            }
            Process p = new ProcessBuilder(hosts.command(h, command)).inheritIO().start();
            return p.waitFor();
        }
    }
}
