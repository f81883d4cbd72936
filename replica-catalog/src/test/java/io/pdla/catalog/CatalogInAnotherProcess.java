package io.pdla.catalog;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Another process's attempt to open a catalog for writing, without waiting: what a job's rank does between the daemon's
 * transactions. JE's environment lock is per process, so only another JVM can tell whether this one still holds it.
 * Shared with the replicator's tests through the test-jar.
 */
public final class CatalogInAnotherProcess {
    /** What the child printed: {@code OPENED} or {@code LOCKED}, or the failure. */
    public static String tryOpen(Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), CatalogInAnotherProcess.class.getName(),
                dir.toAbsolutePath().toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line = out.readLine();
            if (!p.waitFor(60, TimeUnit.SECONDS)) p.destroyForcibly();
            return String.valueOf(line);
        } finally {
            p.destroyForcibly();
        }
    }

    public static void main(String[] args) {
        try (Catalog c = Catalog.openWaiting(Path.of(args[0]), 0)) {
            System.out.println("OPENED");
        } catch (CatalogLockedException e) {
            System.out.println("LOCKED");
        } catch (RuntimeException e) {
            System.out.println("FAILED " + e);
        }
        System.out.flush();
    }
}
