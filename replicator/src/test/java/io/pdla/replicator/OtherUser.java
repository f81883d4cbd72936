package io.pdla.replicator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The second user of the security tests, {@value #NAME}: created by {@code ./pdla test} (ensure_test_user) or
 * here when missing, and child JVMs run as that user with {@code runuser}. Needs root (CI runs as root); on a
 * machine where the tests do not run as root they are skipped with the reason printed.
 */
public final class OtherUser {
    public static final String NAME = "pdlatest";
    private static Path classPath;
    private static String classPathEntries;

    private OtherUser() {
    }

    /** Skips the calling test (with the reason printed) unless running as root with user {@value #NAME} available. */
    public static void assumeAvailable() {
        String why = unavailable();
        if (why != null) System.out.println("SKIPPED two-user test: " + why);
        assumeTrue(why == null, why);
    }

    private static synchronized String unavailable() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "not running as root (user " + System.getProperty("user.name") + "): cannot become a second user";
        }
        try {
            if (run(List.of("id", NAME)) != 0 && !created()) return "user " + NAME + " does not exist and useradd failed";
            if (run(List.of("runuser", "-u", NAME, "--", "true")) != 0) return "runuser -u " + NAME + " failed";
        } catch (IOException e) {
            return "cannot run id/useradd/runuser: " + e.getMessage();
        }
        return null;
    }

    /**
     * useradd, tried again for a few seconds: redirect runs its test classes in two JVMs, and the other one may be
     * creating the same user at the same moment (useradd then fails on the lock of /etc/passwd).
     */
    private static boolean created() throws IOException {
        for (int attempt = 0; attempt < 20; attempt++) {
            if (run(List.of("useradd", "-m", NAME)) == 0 || run(List.of("id", NAME)) == 0) return true;
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    private static int run(List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
            return p.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    public static UserPrincipal user() throws IOException {
        return lookup().lookupPrincipalByName(NAME);
    }

    public static GroupPrincipal group() throws IOException {
        return lookup().lookupPrincipalByGroupName(NAME);
    }

    private static UserPrincipalLookupService lookup() {
        return java.nio.file.FileSystems.getDefault().getUserPrincipalLookupService();
    }

    /** Lets the other user reach {@code dir} (a test's temporary directory is private to root). */
    public static void openUp(Path dir) throws IOException {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** Gives {@code dir} and everything under it to the other user. */
    public static void give(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.toList()) {
                Files.setOwner(p, user());
                Files.getFileAttributeView(p, java.nio.file.attribute.PosixFileAttributeView.class).setGroup(group());
            }
        }
    }

    /** Output and exit code of a child. */
    public record Result(int exit, String output) {
    }

    /**
     * Runs {@code mainClass} in a JVM as the other user, with a copy of this JVM's class path that it can read: the
     * checkout and the Maven repository may sit in directories only their owner can enter (a clone under /root), and
     * their modes are not ours to widen.
     */
    public static Result java(Class<?> mainClass, String... args) throws IOException, InterruptedException {
        return java(java.util.Map.of(), mainClass, args);
    }

    /** As {@link #java(Class, String...)}, with {@code env} added to the child's environment (runuser keeps it). */
    public static Result java(java.util.Map<String, String> env, Class<?> mainClass, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("runuser", "-u", NAME, "--",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-cp", classPath(), mainClass.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).directory(new java.io.File("/tmp"));
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("child JVM as " + NAME + " did not finish: " + new String(out));
        }
        return new Result(p.exitValue(), new String(out));
    }

    /**
     * This JVM's class path copied (jars and class folders alike) into a temporary directory under /tmp that the other
     * user can read, made once per JVM and removed when it exits. Copies, not hard links: a link shares its target's
     * inode, so making it readable would widen the mode of the user's own file.
     */
    private static synchronized String classPath() throws IOException {
        if (classPath != null) return classPathEntries;
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "pdla-otheruser-cp-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
        openUp(dir);
        List<String> out = new ArrayList<>();
        int i = 0;
        for (String e : cp.split(java.io.File.pathSeparator)) {
            if (e.isBlank()) continue;
            Path p = Path.of(e);
            if (!Files.exists(p)) continue;     // a class path may name a folder the build did not make
            Path copy = dir.resolve((i++) + "-" + p.getFileName());
            if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.walk(p)) {
                    for (Path f : s.toList()) {
                        Path to = copy.resolve(p.relativize(f).toString());
                        if (Files.isDirectory(f)) {
                            Files.createDirectories(to);
                            Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rwxr-xr-x"));
                        } else {
                            Files.copy(f, to);
                            Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rw-r--r--"));
                        }
                    }
                }
            } else {
                Files.copy(p, copy);
                Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
            }
            out.add(copy.toString());
        }
        classPath = dir;
        classPathEntries = String.join(java.io.File.pathSeparator, out);
        return classPathEntries;
    }

    private static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // already gone
        }
    }
}
