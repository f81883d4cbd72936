package io.pdla.hosts;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The multi-host tests' fixture: {@code @RegisterExtension static HostsExtension hosts = new HostsExtension(3);}
 * makes three namespace hosts before the class's tests and removes them after (also when tests fail, and from
 * a shutdown hook when the JVM is stopped), after first sweeping what killed earlier runs left under this
 * fixture's prefix. Processes started through {@link #start} are stopped by pid before the hosts go.
 *
 * <p>A machine without namespaces (not root, no {@code ip}/{@code tc}/{@code unshare}) fails the class in
 * {@code beforeAll} with the reason: these tests are part of the suite, never skipped silently.
 */
public final class HostsExtension implements BeforeAllCallback, AfterAllCallback {
    /** Names of this fixture's hosts start with it; the sweep removes only dead runs of this prefix. */
    public static final String PREFIX = "pdlat-";

    private final int count;
    private final String rate;
    private final String delay;
    private NamespaceHosts hosts;
    private Thread hook;
    private final List<Process> started = new ArrayList<>();

    public HostsExtension(int count) {
        this(count, NamespaceHosts.DEFAULT_RATE, NamespaceHosts.DEFAULT_DELAY);
    }

    public HostsExtension(int count, String rate, String delay) {
        this.count = count;
        this.rate = rate;
        this.delay = delay;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        NamespaceHosts.checkSupport();
        List<String> swept = NamespaceHosts.sweepStale(PREFIX);
        if (!swept.isEmpty()) System.err.println("HostsExtension: removed stale hosts of dead runs: " + swept);
        hosts = NamespaceHosts.up(PREFIX, count, rate, delay);
        hook = new Thread(this::tearDown, "hosts-teardown");
        Runtime.getRuntime().addShutdownHook(hook);
        if (!hosts.delayApplied()) {
            System.err.println("HostsExtension: this kernel has no netem qdisc: links are shaped to " + rate + " but not delayed by " + delay);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException | NullPointerException shuttingDownOrNeverAdded) {
            // the hook runs (or never ran up) by itself
        }
        tearDown();
    }

    private synchronized void tearDown() {
        for (Process p : started) stop(p);
        started.clear();
        if (hosts != null) hosts.close();
    }

    public NamespaceHosts hosts() {
        return hosts;
    }

    public NamespaceHosts.Host host(int i) {
        return hosts.host(i);
    }

    /** Starts {@code cmd} on host {@code h} (its output into {@code log}); stopped at the latest after the class. */
    public synchronized Process start(NamespaceHosts.Host h, List<String> cmd, Path log) throws IOException {
        Process p = new ProcessBuilder(hosts.command(h, cmd)).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        started.add(p);
        return p;
    }

    /** Output and exit status of a command run to its end on a host (-1 and killed after {@code seconds}). */
    public record Result(int status, String output) {
    }

    public Result run(NamespaceHosts.Host h, List<String> cmd, Path log, long seconds) throws IOException, InterruptedException {
        Process p = start(h, cmd, log);
        boolean done = p.waitFor(seconds, TimeUnit.SECONDS);
        if (!done) stop(p);
        String out = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        return new Result(done ? p.exitValue() : -1, done ? out : out + "\n[killed after " + seconds + " s]");
    }

    /**
     * What a host's crash looks like to the others: every process on it killed at once (SIGKILL: no shutdown hook,
     * no close, no goodbye on a socket) and its link down. {@link #restore} brings the link back.
     */
    public void crash(NamespaceHosts.Host h) throws IOException, InterruptedException {
        Process pids = new ProcessBuilder("ip", "netns", "pids", h.name()).redirectErrorStream(true).start();
        if (!pids.waitFor(20, TimeUnit.SECONDS)) throw new IOException("ip netns pids " + h.name() + " hung");
        for (String pid : new String(pids.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\\s+")) {
            if (pid.matches("\\d+")) ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
        }
        link(h, "down");
    }

    public void restore(NamespaceHosts.Host h) throws IOException, InterruptedException {
        link(h, "up");
    }

    private static void link(NamespaceHosts.Host h, String state) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("ip", "-n", h.name(), "link", "set", "eth0", state).redirectErrorStream(true).start();
        if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IOException("ip link set eth0 " + state + " on " + h.name() + " failed");
    }

    /** Stops a process and what it started, by pid: TERM, then KILL after a bounded wait. */
    public static void stop(Process p) {
        List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
        all.add(p.toHandle());
        all.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (ProcessHandle h : all) {
            try {
                long left = deadline - System.nanoTime();
                if (left > 0) h.onExit().get(left, TimeUnit.NANOSECONDS);
            } catch (Exception notYet) {
                // killed below
            }
            if (h.isAlive()) h.destroyForcibly();
        }
    }
}
