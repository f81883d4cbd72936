package io.pdla.hosts;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * N hosts on one machine, each a Linux network namespace with its own address, hostname and shaped link to a
 * bridge that sits in a namespace of its own. The file systems stay shared, as a cluster's parallel file system
 * is; only the network is separate.
 *
 * <p>The test network is sealed off: the root namespace gets no address and no route on it, hosts have only
 * their connected subnet (no default route), and the subnet is drawn at run time from 198.18.0.0/15 (RFC 2544's
 * benchmarking range) and checked against every route and address of the root namespace, so a packet from a
 * host can reach only the other hosts of the same run. Names carry the creating process's pid and a random
 * token, so two runs on one machine never collide, and a later run can tell a dead run's leftovers
 * ({@link #sweepStale}).
 *
 * <p>A host's hostname is its namespace's name, so that a machines file listing hostnames also says which
 * namespace each host is ({@code pdla run} starts MPJ daemons there by that name). Each host gets
 * {@code /etc/netns/NAME/hosts}, which {@code ip netns exec} binds over {@code /etc/hosts} for what it runs, and
 * {@link #command} wraps a command in {@code unshare --uts} with the host's hostname (MPJ Express tells its peers
 * where to connect by hostname; without their own UTS namespace all hosts would share the machine's name).
 */
public final class NamespaceHosts implements AutoCloseable {
    /** One host: its 1-based index, namespace name (= hostname) and IPv4 address. */
    public record Host(int index, String name, String address) {
    }

    public static final String DEFAULT_RATE = "1gbit";
    public static final String DEFAULT_DELAY = "0.1ms";
    private static final Pattern RATE = Pattern.compile("(\\d+)(k|m|g)?bit");
    private static final Pattern DELAY = Pattern.compile("\\d+(\\.\\d+)?(us|ms|s)");
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,20}");
    private static final long COMMAND_SECONDS = 20;
    private static final int MAX_HOSTS = 250;

    private final String run;
    private final String switchNamespace;
    private final String subnet;
    private final List<Host> hosts;
    private final String rate;
    private final String delay;
    private final boolean delayApplied;
    private boolean closed;

    private NamespaceHosts(String run, String switchNamespace, String subnet, List<Host> hosts, String rate, String delay, boolean delayApplied) {
        this.run = run;
        this.switchNamespace = switchNamespace;
        this.subnet = subnet;
        this.hosts = List.copyOf(hosts);
        this.rate = rate;
        this.delay = delay;
        this.delayApplied = delayApplied;
    }

    /**
     * Creates {@code count} hosts named {@code PREFIX<pid>-<token>-h<i>}; links shaped to {@code rate} (tc's
     * syntax: {@code 1gbit}, {@code 100mbit}) and {@code delay} ({@code 0.1ms}, {@code 50us}; {@code 0ms}: none)
     * in each direction of each link. Whatever was made before a failure is removed again before the exception
     * leaves.
     */
    public static NamespaceHosts up(String prefix, int count, String rate, String delay) throws IOException {
        checkSupport();
        if (!NAME.matcher(prefix.replaceAll("-$", "")).matches()) {
            throw new IllegalArgumentException("host name prefix must be lower-case letters, digits and '-', starting with a letter: '" + prefix + "'");
        }
        if (count < 1 || count > MAX_HOSTS) throw new IllegalArgumentException("number of hosts must be 1.." + MAX_HOSTS + ", was " + count);
        long rateBits = rateBits(rate);
        if (!DELAY.matcher(delay).matches()) throw new IllegalArgumentException("delay must be a number with us, ms or s (e.g. 0.1ms), was '" + delay + "'");
        String token = Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36), 36);
        String run = prefix + ProcessHandle.current().pid() + "-" + token;
        String sw = run + "-sw";
        String net = freeSubnet();
        List<Host> hosts = new ArrayList<>();
        for (int i = 1; i <= count; i++) hosts.add(new Host(i, run + "-h" + i, net + "." + i));
        NamespaceHosts made = new NamespaceHosts(run, sw, net + ".0/24", hosts, rate, delay, false);
        boolean delayApplied = true;
        try {
            ip("netns", "add", sw);
            ip("-n", sw, "link", "add", "br0", "type", "bridge");
            ip("-n", sw, "link", "set", "br0", "up");
            StringBuilder etcHosts = new StringBuilder("127.0.0.1 localhost\n");
            for (Host h : hosts) etcHosts.append(h.address()).append(' ').append(h.name()).append('\n');
            for (Host h : hosts) {
                String port = "p" + h.index();
                ip("netns", "add", h.name());
                ip("-n", h.name(), "link", "add", "eth0", "type", "veth", "peer", "name", port, "netns", sw);
                ip("-n", sw, "link", "set", port, "master", "br0");
                ip("-n", sw, "link", "set", port, "up");
                ip("-n", h.name(), "addr", "add", h.address() + "/24", "dev", "eth0");
                ip("-n", h.name(), "link", "set", "eth0", "up");
                ip("-n", h.name(), "link", "set", "lo", "up");
                // both directions of the link cost what they cost: the host's egress and the switch port's egress
                delayApplied &= shape(h.name(), "eth0", rateBits, rate, delay);
                delayApplied &= shape(sw, port, rateBits, rate, delay);
                Path dir = Path.of("/etc/netns", h.name());
                Files.createDirectories(dir);
                Files.writeString(dir.resolve("hosts"), etcHosts);
            }
        } catch (IOException | RuntimeException e) {
            try {
                made.close();
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        return new NamespaceHosts(run, sw, made.subnet, hosts, rate, delay, delayApplied);
    }

    /**
     * tbf for the rate; netem under it for the delay when the kernel has it (sch_netem is a module some kernels
     * lack: then the delay is not applied, which {@link #delayApplied()} says and callers report).
     */
    private static boolean shape(String ns, String dev, long rateBits, String rate, String delay) throws IOException {
        // a burst of 2 ms at the rate (at least 64 KiB): tbf needs at least rate/HZ, more would let bursts pass unshaped
        long burst = Math.max(64 * 1024, rateBits / 8 / 500);
        exec(List.of("tc", "-n", ns, "qdisc", "add", "dev", dev, "root", "handle", "1:", "tbf", "rate", rate,
                "burst", Long.toString(burst), "latency", "20ms"));
        if (zeroDelay(delay)) return true;
        Result r = run(List.of("tc", "-n", ns, "qdisc", "add", "dev", dev, "parent", "1:1", "handle", "10:", "netem", "delay", delay));
        if (r.status == 0) return true;
        if (r.output.contains("qdisc kind is unknown")) return false;
        throw new IOException("tc netem delay " + delay + " on " + ns + "/" + dev + " failed: " + r.output.strip());
    }

    private static boolean zeroDelay(String delay) {
        return delay.matches("0+(\\.0+)?(us|ms|s)");
    }

    static long rateBits(String rate) {
        Matcher m = RATE.matcher(rate.toLowerCase(Locale.ROOT));
        if (!m.matches()) throw new IllegalArgumentException("rate must be a whole number with bit, kbit, mbit or gbit (e.g. 1gbit), was '" + rate + "'");
        long n = Long.parseLong(m.group(1));
        long unit = m.group(2) == null ? 1 : switch (m.group(2)) {
            case "k" -> 1_000L;
            case "m" -> 1_000_000L;
            default -> 1_000_000_000L;
        };
        if (n <= 0 || n > 100_000_000_000L / unit) throw new IllegalArgumentException("rate must be between 1bit and 100gbit, was '" + rate + "'");
        return n * unit;
    }

    /**
     * A /24 of 198.18.0.0/15 that no route (any table) and no address of this (the root) namespace overlaps:
     * the machine's own network may use any range, and the test network must never shadow it.
     */
    static String freeSubnet() throws IOException {
        List<long[]> used = new ArrayList<>();
        for (List<String> cmd : List.of(List.of("ip", "-4", "route", "show", "table", "all"), List.of("ip", "-4", "-o", "addr", "show"))) {
            for (String word : exec(cmd).split("\\s+")) {
                long[] cidr = cidr(word);
                if (cidr != null) used.add(cidr);
            }
        }
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 64; attempt++) {
            int third = rnd.nextInt(512);   // 198.18.0.0/15 = 512 /24s
            long base = (198L << 24) | ((18L + (third >> 8)) << 16) | ((long) (third & 0xff) << 8);
            boolean free = used.stream().noneMatch(c -> overlaps(c[0], c[1], base, 24));
            if (free) return "198." + (18 + (third >> 8)) + "." + (third & 0xff);
        }
        throw new IOException("no free /24 in 198.18.0.0/15: the root namespace routes or uses all that were tried");
    }

    /** {address, prefix length} of an IPv4 a.b.c.d[/n] word, or null. */
    static long[] cidr(String word) {
        Matcher m = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})(?:/(\\d{1,2}))?").matcher(word);
        if (!m.matches()) return null;
        long a = 0;
        for (int i = 1; i <= 4; i++) {
            int o = Integer.parseInt(m.group(i));
            if (o > 255) return null;
            a = (a << 8) | o;
        }
        int len = m.group(5) == null ? 32 : Integer.parseInt(m.group(5));
        return len > 32 ? null : new long[]{a, len};
    }

    static boolean overlaps(long a, long aLen, long b, long bLen) {
        long len = Math.min(aLen, bLen);
        long mask = len == 0 ? 0 : (0xffffffffL << (32 - len)) & 0xffffffffL;
        return (a & mask) == (b & mask);
    }

    /**
     * Root, {@code ip}, {@code tc} and {@code unshare}: without them there are no hosts, and a test that needs
     * hosts must fail saying so (never skip silently).
     */
    public static void checkSupport() {
        List<String> missing = new ArrayList<>();
        if (!"root".equals(System.getProperty("user.name")) && !isRootUid()) missing.add("root (network namespaces need CAP_SYS_ADMIN)");
        for (String tool : List.of("ip", "tc", "unshare")) {
            if (!onPath(tool)) missing.add("'" + tool + "' on PATH (" + (tool.equals("unshare") ? "util-linux" : "iproute2") + ")");
        }
        if (missing.isEmpty() && !Files.isDirectory(Path.of("/proc/self/ns")) ) missing.add("/proc/self/ns (a kernel with namespaces)");
        if (!missing.isEmpty()) {
            throw new IllegalStateException("network-namespace hosts are not available here: missing " + String.join(", ", missing));
        }
    }

    private static boolean isRootUid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) return line.split("\\s+")[1].equals("0");
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) return true;
        }
        return false;
    }

    public List<Host> hosts() {
        return hosts;
    }

    public Host host(int index) {
        return hosts.get(index - 1);
    }

    public String run() {
        return run;
    }

    public String subnet() {
        return subnet;
    }

    public String switchNamespace() {
        return switchNamespace;
    }

    public String rate() {
        return rate;
    }

    public String delay() {
        return delay;
    }

    /** False when the kernel has no netem qdisc, so links are rate-shaped but not delayed. */
    public boolean delayApplied() {
        return delayApplied;
    }

    /** The machines-file text: one hostname per line. */
    public String machines() {
        StringBuilder b = new StringBuilder();
        for (Host h : hosts) b.append(h.name()).append('\n');
        return b.toString();
    }

    /**
     * {@code cmd} as run on host {@code h}: in its network namespace, with its /etc/hosts and its own hostname.
     * Every wrapper execs, so the pid of the process started from this command is the command's own pid.
     */
    public static List<String> command(String host, List<String> cmd) {
        List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", host, "unshare", "--uts", "sh", "-c",
                "hostname \"$0\" && exec \"$@\"", host));
        c.addAll(cmd);
        return c;
    }

    public List<String> command(Host h, List<String> cmd) {
        return command(h.name(), cmd);
    }

    /** Whether {@code name} is a network namespace of this machine (a host made by this class, for callers). */
    public static boolean isNamespace(String name) {
        return NAME_ANY.matcher(name).matches() && Files.exists(Path.of("/var/run/netns", name));
    }

    /**
     * The named network namespace this process runs in, or null when it runs in none (the root namespace, or an
     * unnamed one): what a launcher checks before it contacts namespace hosts, which only their fellow hosts can
     * reach. Compares the inode of /proc/self/ns/net with those of /var/run/netns/*; sends nothing.
     */
    public static String currentNamespace() {
        try {
            String self = Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();   // net:[4026531840]
            Matcher m = Pattern.compile("net:\\[(\\d+)]").matcher(self);
            if (!m.matches()) return null;
            long ino = Long.parseLong(m.group(1));
            Path dir = Path.of("/var/run/netns");
            if (!Files.isDirectory(dir)) return null;
            try (var s = Files.list(dir)) {
                for (Path p : s.toList()) {
                    try {
                        if (((Number) Files.getAttribute(p, "unix:ino")).longValue() == ino) return p.getFileName().toString();
                    } catch (IOException | UnsupportedOperationException gone) {
                        // removed meanwhile, or not a namespace
                    }
                }
            }
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
        return null;
    }

    private static final Pattern NAME_ANY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,200}");

    /**
     * Removes everything of this run: processes still running in its namespaces (by pid, from {@code ip netns
     * pids}: only what runs in namespaces this run made), the namespaces (which removes their veth ends, bridge
     * and qdiscs) and the /etc/netns entries. Idempotent; tries every step and reports the first failure.
     */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        List<String> names = new ArrayList<>();
        for (Host h : hosts) names.add(h.name());
        names.add(switchNamespace);
        RuntimeException first = removeNamespaces(names);
        if (first != null) throw first;
    }

    private static RuntimeException removeNamespaces(List<String> names) {
        RuntimeException first = null;
        for (String ns : names) {
            try {
                killProcessesIn(ns);
                if (Files.exists(Path.of("/var/run/netns", ns))) {
                    Result r = run(List.of("ip", "netns", "del", ns));
                    if (r.status != 0 && Files.exists(Path.of("/var/run/netns", ns))) {
                        throw new IOException("ip netns del " + ns + ": " + r.output.strip());
                    }
                }
                deleteTree(Path.of("/etc/netns", ns));
            } catch (IOException e) {
                if (first == null) first = new UncheckedIOException(e);
            } catch (RuntimeException e) {
                if (first == null) first = e;
            }
        }
        return first;
    }

    private static void killProcessesIn(String ns) throws IOException {
        if (!Files.exists(Path.of("/var/run/netns", ns))) return;
        Result r = run(List.of("ip", "netns", "pids", ns));
        if (r.status != 0) return;
        List<ProcessHandle> procs = new ArrayList<>();
        for (String pid : r.output.split("\\s+")) {
            if (pid.matches("\\d+")) ProcessHandle.of(Long.parseLong(pid)).ifPresent(procs::add);
        }
        procs.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (ProcessHandle p : procs) {
            long left = deadline - System.nanoTime();
            try {
                if (left > 0) p.onExit().get(left, TimeUnit.NANOSECONDS);
            } catch (Exception notYet) {
                // killed below
            }
            if (p.isAlive()) p.destroyForcibly();
        }
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (var s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(q);
        }
    }

    /**
     * Removes the namespaces (and /etc/netns entries) whose names start with {@code prefix} and carry the pid of a
     * process that no longer runs: what a killed test run left behind. Runs still alive, and names of other
     * prefixes, are left alone. Returns the names removed.
     */
    public static List<String> sweepStale(String prefix) throws IOException {
        checkSupport();
        Pattern own = Pattern.compile(Pattern.quote(prefix) + "(\\d+)-[a-z0-9]+-(sw|h\\d+)");
        List<String> stale = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (String line : exec(List.of("ip", "netns", "list")).split("\n")) {
            if (!line.isBlank()) names.add(line.trim().split("\\s+")[0]);
        }
        try (var s = Files.exists(Path.of("/etc/netns")) ? Files.list(Path.of("/etc/netns")) : java.util.stream.Stream.<Path>empty()) {
            s.map(p -> p.getFileName().toString()).filter(n -> !names.contains(n)).forEach(names::add);
        }
        for (String n : names) {
            Matcher m = own.matcher(n);
            if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) stale.add(n);
        }
        RuntimeException failed = removeNamespaces(stale);
        if (failed != null) throw new IOException("sweeping stale hosts " + stale + ": " + failed.getMessage(), failed);
        return stale;
    }

    /** Writes what this run made, so that {@link #load} and {@link #close} (pdla hosts down) remove exactly it. */
    public void save(Path state) throws IOException {
        Properties p = new Properties();
        p.setProperty("run", run);
        p.setProperty("switch", switchNamespace);
        p.setProperty("subnet", subnet);
        p.setProperty("rate", rate);
        p.setProperty("delay", delay);
        p.setProperty("delay.applied", Boolean.toString(delayApplied));
        p.setProperty("hosts", Integer.toString(hosts.size()));
        for (Host h : hosts) {
            p.setProperty("host." + h.index() + ".name", h.name());
            p.setProperty("host." + h.index() + ".address", h.address());
        }
        Path parent = state.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        try (OutputStream out = Files.newOutputStream(state)) {
            p.store(out, "pdla hosts: what `pdla hosts up` made; `pdla hosts down` removes exactly this");
        }
    }

    public static NamespaceHosts load(Path state) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(state)) {
            p.load(in);
        }
        try {
            String run = required(p, "run", state);
            int n = Integer.parseInt(required(p, "hosts", state));
            List<Host> hosts = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                String name = required(p, "host." + i + ".name", state);
                // only names of this run: a damaged or foreign state file must not make `down` delete other namespaces
                if (!name.equals(run + "-h" + i)) throw new IOException(state + ": host " + i + " is '" + name + "', not a host of run " + run);
                hosts.add(new Host(i, name, required(p, "host." + i + ".address", state)));
            }
            String sw = required(p, "switch", state);
            if (!sw.equals(run + "-sw")) throw new IOException(state + ": switch '" + sw + "' is not run " + run + "'s");
            return new NamespaceHosts(run, sw, required(p, "subnet", state), hosts, p.getProperty("rate", DEFAULT_RATE),
                    p.getProperty("delay", DEFAULT_DELAY), Boolean.parseBoolean(p.getProperty("delay.applied", "true")));
        } catch (NumberFormatException e) {
            throw new IOException(state + ": not a hosts state file (" + e.getMessage() + ")");
        }
    }

    private static String required(Properties p, String key, Path state) throws IOException {
        String v = p.getProperty(key);
        if (v == null || v.isBlank()) throw new IOException(state + ": not a hosts state file (no '" + key + "')");
        return v.trim();
    }

    private static void ip(String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add("ip");
        cmd.addAll(List.of(args));
        exec(cmd);
    }

    private static String exec(List<String> cmd) throws IOException {
        Result r = run(cmd);
        if (r.status != 0) throw new IOException(String.join(" ", cmd) + " failed (exit " + r.status + "): " + r.output.strip());
        return r.output;
    }

    private record Result(int status, String output) {
    }

    /** Runs a short administrative command, bounded in time; its combined output. */
    private static Result run(List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            byte[][] out = new byte[1][];
            Thread reader = new Thread(() -> {
                try {
                    out[0] = p.getInputStream().readAllBytes();
                } catch (IOException e) {
                    out[0] = new byte[0];
                }
            });
            reader.start();
            if (!p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not finish within " + COMMAND_SECONDS + " s");
            }
            reader.join(5000);
            return new Result(p.exitValue(), out[0] == null ? "" : new String(out[0], StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", cmd), e);
        }
    }
}
