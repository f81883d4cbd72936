package io.pdla.mpiio.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * The jar of pdla's classes that every rank of a multicore job shares: {@link MpiInitOnce}, the agent, appends it to
 * the rank JVM's system class path before MPJ's starter makes the ranks' class loaders. Those loaders delegate to the
 * system class loader first, so each class in here is loaded, initialised and JIT-compiled once per JVM instead of
 * once per rank (four ranks compiled four copies of every hot method, and their first iterations ran interpreted).
 *
 * <p>What goes in is {@value #LIST}, a resource beside this class: the class files (and the resources they read)
 * of pdla's MPI-free modules whose bytecode names nothing outside the JDK and that list, neither MPJ nor
 * {@code io.pdla.mpiio} nor any third-party library (which would shadow the application's own copy). cli's
 * {@code SharedClassesListTest} computes it from the build and checks it, with the rules behind it. The classes are
 * copied from wherever this JVM loaded them (the build's directories or jars, or pdla's shaded jar); entries this JVM
 * cannot find (a module not on its class path) are left out, so the ranks load those from their own class path.
 * Kept by content in {@link LaunchJars}' directory, so a job reuses the jar of an earlier job of the same build.
 */
public final class SharedClassesJar {
    /** The list: one resource path per line ({@code io/pdla/storage/StorageFile.class}), '#' comments. */
    public static final String LIST = "shared-classes.txt";
    /** {@code PDLA_SHARED_CLASSES=false} makes every multicore rank load all of pdla in its own loader again. */
    public static final String ENV = "PDLA_SHARED_CLASSES";

    private static Path path;

    private SharedClassesJar() {
    }

    /** The listed resource paths; empty when the list is missing. */
    public static List<String> entries() {
        List<String> out = new ArrayList<>();
        try (InputStream in = SharedClassesJar.class.getResourceAsStream(LIST)) {
            if (in == null) return out;
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                String s = line.strip();
                if (!s.isEmpty() && !s.startsWith("#")) out.add(s);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + LIST + " beside " + SharedClassesJar.class.getName(), e);
        }
        return out;
    }

    /** Whether jobs share the classes: {@value #ENV} from the job's environment, else this process's; on by default. */
    static boolean enabled(String jobSetting) {
        String v = jobSetting != null ? jobSetting : System.getenv(ENV);
        if (v == null || v.isBlank()) return true;
        return io.pdla.hints.HintFlag.parse("environment variable " + ENV, v.trim());
    }

    /** The jar, written at the first call; null when this JVM finds none of the listed classes. */
    static synchronized Path path() {
        if (path != null) return path;
        ClassLoader from = SharedClassesJar.class.getClassLoader();
        try {
            path = LaunchJars.store("pdla-shared-classes", out -> write(out, from));
            return path;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the shared classes' jar", e);
        }
    }

    /** The listed classes {@code from} finds, as a jar written to {@code out}; false when it finds none. */
    static boolean write(java.io.OutputStream out, ClassLoader from) throws IOException {
        int copied = 0;
        JarOutputStream j = new JarOutputStream(out);
        for (String entry : entries()) {
            try (InputStream in = from.getResourceAsStream(entry)) {
                if (in == null) continue;   // a module this JVM lacks: its ranks lack it too, or load it themselves
                j.putNextEntry(DelegateAgentJar.entry(entry));
                in.transferTo(j);
                j.closeEntry();
                copied++;
            }
        }
        j.finish();
        return copied > 0;
    }
}
