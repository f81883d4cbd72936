package io.pdla.cli;

import io.pdla.hosts.NamespaceHosts;
import io.pdla.mpiio.launch.MpjHome;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What MPJ's {@code mpjboot}/{@code mpjhalt} do for a niodev/hybdev job, without ssh: every host of the machines
 * file must have MPJ's daemon listening on the port of MPJ_HOME's configuration. A daemon that answers is used as
 * it is; on a namespace host ({@code pdla hosts up}: the host's name is its namespace's) pdla starts one inside
 * that host, with the host's own hostname, and stops it again after the job ({@link #close}). Any other host
 * without a daemon ends the run before MPJ starts, with one error naming it: MPJ's starter would otherwise wait
 * on it without saying which.
 */
final class MpjDaemons implements AutoCloseable {
    static final int DEFAULT_PORT = 40055;
    private static final int CONNECT_MILLIS = 3000;
    private static final long START_SECONDS = 30;

    /** A host of the machines file that has no daemon and on which pdla cannot start one. */
    static final class UnreachableHost extends Exception {
        UnreachableHost(String message) {
            super(message);
        }
    }

    private final List<Process> started = new ArrayList<>();
    private final List<String> startedOn = new ArrayList<>();

    /** The distinct hosts of a machines file, in order (blank lines and # comments skipped). */
    static List<String> hosts(Path machines) throws IOException {
        Set<String> hosts = new LinkedHashSet<>();
        for (String line : Files.readAllLines(machines)) {
            String h = line.replaceAll("#.*", "").trim();
            if (!h.isEmpty()) hosts.add(h);
        }
        return new ArrayList<>(hosts);
    }

    /** mpjexpress.mpjdaemon.port.1 of MPJ_HOME's conf/mpjexpress.conf: where MPJ's starter looks for daemons. */
    static int port() {
        Path conf = MpjHome.locate().resolve("conf/mpjexpress.conf");
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(conf)) {
            p.load(in);
            return Integer.parseInt(p.getProperty("mpjexpress.mpjdaemon.port.1", Integer.toString(DEFAULT_PORT)).trim());
        } catch (IOException | NumberFormatException e) {
            return DEFAULT_PORT;
        }
    }

    /**
     * The daemons of a job on {@code device} with {@code machines}: none (null) under multicore or without a machines
     * file, else {@link #ensure} over the file's hosts. An empty machines file is an {@link UnreachableHost} too.
     */
    static MpjDaemons forJob(String device, Path machines) throws UnreachableHost, IOException, InterruptedException {
        if (device.equals("multicore") || machines == null) return null;
        List<String> hosts = hosts(machines);
        if (hosts.isEmpty()) throw new UnreachableHost("machines file " + machines + " names no host");
        Path logs = Files.createTempDirectory("pdla-mpj-daemons");
        try {
            MpjDaemons d = ensure(hosts, port(), logs);
            d.ownedLogs = logs;
            return d;
        } catch (UnreachableHost | IOException | InterruptedException | RuntimeException e) {
            deleteLogs(logs);   // what a failed start said is in the exception's message
            throw e;
        }
    }

    /** What a command runs once the daemons of its job are up: its exit status. */
    @FunctionalInterface
    interface Job {
        int run() throws Exception;
    }

    /** How a command reports a host no daemon can serve (its own bad-input message): the exit status to return. */
    @FunctionalInterface
    interface Refusal {
        int refuse(String message) throws IOException;
    }

    /**
     * The launch every MPJ job of the commands shares: the daemons of a job on {@code device} with {@code machines}
     * found or started ({@link #forJob}), {@code job} run, the daemons this started stopped after it whatever it did.
     * A host without a daemon goes to {@code refusal} before anything runs.
     */
    static int runJob(String device, Path machines, Refusal refusal, Job job) throws Exception {
        try (MpjDaemons ignored = forJob(device, machines)) {
            return job.run();
        } catch (UnreachableHost e) {
            return refusal.refuse(e.getMessage());
        }
    }

    /** The daemons' log directory this object made, removed with the daemons at {@link #close}. */
    private Path ownedLogs;

    private static void deleteLogs(Path dir) {
        try (var s = Files.list(dir)) {
            for (Path f : s.toList()) Files.deleteIfExists(f);
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a temporary directory left behind is no reason to fail a job
        }
    }

    /** Finds or starts a daemon on every host; on an unreachable host stops what it started and throws, naming it. */
    static MpjDaemons ensure(List<String> hosts, int port, Path logDir) throws UnreachableHost, IOException, InterruptedException {
        List<String> namespaceHosts = hosts.stream().filter(NamespaceHosts::isNamespace).toList();
        if (!namespaceHosts.isEmpty() && NamespaceHosts.currentNamespace() == null) {
            // checked before any connection: from outside the test network a packet to a host's address would follow
            // this namespace's default route off the machine
            throw new UnreachableHost("host " + namespaceHosts.get(0) + " is a namespace host (pdla hosts up), reachable only from its fellow"
                    + " hosts, and this launcher runs outside them: run it on one, e.g. pdla hosts exec 1 -- pdla run ...");
        }
        MpjDaemons d = new MpjDaemons();
        try {
            for (String host : hosts) d.ensure(host, port, logDir);
            return d;
        } catch (UnreachableHost | IOException | InterruptedException | RuntimeException e) {
            d.close();
            throw e;
        }
    }

    private void ensure(String host, int port, Path logDir) throws UnreachableHost, IOException, InterruptedException {
        String why = answers(host, port);
        if (why == null) return;
        if (!NamespaceHosts.isNamespace(host)) {
            throw new UnreachableHost("host " + host + " cannot be reached: no MPJ daemon answers on " + host + ":" + port + " (" + why
                    + "), and pdla starts daemons only on its own namespace hosts (pdla hosts up); start one there with"
                    + " `java -jar $MPJ_HOME/lib/daemon.jar " + port + "` or correct the machines file");
        }
        if (why.contains("unreachable") || why.contains("No route")) {
            // a namespace host is reachable only from the hosts of its run: starting a daemon there would not help
            throw new UnreachableHost("host " + host + " cannot be reached from here (" + why + "): it is a namespace host, reachable only from"
                    + " its fellow hosts; run the launcher on one of them: pdla hosts exec 1 -- pdla run ...");
        }
        Path home = MpjHome.locate();
        Path log = logDir.resolve("mpj-daemon-" + host + ".log");
        ProcessBuilder pb = new ProcessBuilder(NamespaceHosts.command(host, List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", home.resolve("lib/daemon.jar").toString(), Integer.toString(port))))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("MPJ_HOME", home.toString());
        Process p = pb.start();
        started.add(p);
        startedOn.add(host);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while ((why = answers(host, port)) != null) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                String out = Files.exists(log) ? Files.readString(log).strip() : "";
                throw new UnreachableHost("host " + host + ": the MPJ daemon pdla started there " + (p.isAlive() ? "did not listen on port " + port
                        + " within " + START_SECONDS + " s" : "exited with status " + p.exitValue()) + " (" + why + ")"
                        + (out.isEmpty() ? "" : ": " + out.lines().reduce((a, b) -> b).orElse("")));
            }
            Thread.sleep(100);
        }
    }

    /** null when something accepts a connection on host:port, else why not. */
    static String answers(String host, int port) {
        InetAddress a;
        try {
            a = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return "unknown host";
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(a, port), CONNECT_MILLIS);
            return null;
        } catch (IOException e) {
            return e.getMessage() == null ? e.toString() : e.getMessage();
        }
    }

    /** The hosts on which this run started a daemon. */
    List<String> startedOn() {
        return List.copyOf(startedOn);
    }

    /** Stops the daemons this run started (and the rank JVMs they still run), by pid; leaves found ones alone. */
    @Override
    public void close() {
        for (Process p : started) {
            List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
            all.add(p.toHandle());
            all.forEach(ProcessHandle::destroy);
            for (ProcessHandle h : all) {
                try {
                    h.onExit().get(5, TimeUnit.SECONDS);
                } catch (Exception notYet) {
                    h.destroyForcibly();
                }
            }
        }
        started.clear();
        if (ownedLogs != null) {
            deleteLogs(ownedLogs);
            ownedLogs = null;
        }
    }
}
