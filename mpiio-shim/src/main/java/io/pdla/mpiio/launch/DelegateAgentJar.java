package io.pdla.mpiio.launch;

import org.objectweb.asm.ClassReader;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * The jar that {@code -javaagent:} names for {@link MpiInitOnce}: the agent's own classes, copied from
 * wherever this JVM loaded them, and a Class-Path to ASM. Only these go on the rank JVM's system class path:
 * the rest of pdla must stay in each multicore rank's own class loader. Written once per JVM into the
 * temporary directory.
 */
final class DelegateAgentJar {
    private static final String[] AGENT_CLASSES = {"MpiInitOnce", "MpiInitOnce$Transformer", "MpiInitOnce$1",
            "MpiInitOnce$InitGuard", "MpiInitOnce$FinalizeGuard"};
    private static Path path;

    private DelegateAgentJar() {
    }

    static synchronized Path path() {
        if (path != null) return path;
        try {
            Path jar = Files.createTempFile("pdla-delegate-agent", ".jar");
            jar.toFile().deleteOnExit();
            Manifest m = new Manifest();
            Attributes a = m.getMainAttributes();
            a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
            a.put(new Attributes.Name("Premain-Class"), MpiInitOnce.class.getName());
            a.put(Attributes.Name.CLASS_PATH, location(ClassReader.class));
            try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, m)) {
                for (String c : AGENT_CLASSES) {
                    String entry = "io/pdla/mpiio/launch/" + c + ".class";
                    try (InputStream in = MpiInitOnce.class.getClassLoader().getResourceAsStream(entry)) {
                        if (in == null) throw new IOException("class file " + entry + " not found on the class path");
                        j.putNextEntry(new JarEntry(entry));
                        in.transferTo(j);
                        j.closeEntry();
                    }
                }
            }
            path = jar;
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the delegate agent jar", e);
        }
    }

    private static String location(Class<?> c) {
        try {
            return c.getProtectionDomain().getCodeSource().getLocation().toURI().toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("where " + c.getName() + " was loaded from is not a URI", e);
        }
    }
}
