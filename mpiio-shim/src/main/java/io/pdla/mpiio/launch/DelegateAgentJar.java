package io.pdla.mpiio.launch;

import org.objectweb.asm.ClassReader;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * The jar that {@code -javaagent:} names for {@link MpiInitOnce}: the agent's own classes and ASM's core
 * package, copied from wherever this JVM loaded them (the build's directories and jars, or pdla's shaded
 * jar). Only these, and the MPI-free classes of {@link SharedClassesJar}'s jar that the agent appends, go on the
 * rank JVM's system class path: the rest of pdla (the shim, which names MPJ's classes) must stay in each multicore
 * rank's own class loader, next to MPJ's classes. Kept by content in {@link LaunchJars}' directory.
 */
final class DelegateAgentJar {
    private static final String[] AGENT_CLASSES = {"MpiInitOnce", "MpiInitOnce$Transformer", "MpiInitOnce$1",
            "MpiInitOnce$InitGuard", "MpiInitOnce$FinalizeGuard",
            "ContextAgreementPatch", "ContextAgreementPatch$1", "ContextAgreementPatch$1$1",
            "LinearContextAgreement"};   // the last one is read as bytes by the agent, never loaded from this jar
    private static Path path;

    private DelegateAgentJar() {
    }

    static synchronized Path path() {
        if (path != null) return path;
        try {
            path = LaunchJars.store("pdla-delegate-agent", DelegateAgentJar::write);
            return path;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the delegate agent jar", e);
        }
    }

    /** The agent's jar, written to {@code out}: the same classes make the same bytes. */
    static boolean write(java.io.OutputStream out) throws IOException {
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.put(new Attributes.Name("Premain-Class"), MpiInitOnce.class.getName());
        JarOutputStream j = new JarOutputStream(out);
        // written with fixed times, so the same classes make the same bytes and the same jar name
        j.putNextEntry(entry(java.util.jar.JarFile.MANIFEST_NAME));
        m.write(j);
        j.closeEntry();
        copyAsm(j);
        for (String c : AGENT_CLASSES) {
            String name = "io/pdla/mpiio/launch/" + c + ".class";
            try (InputStream in = MpiInitOnce.class.getClassLoader().getResourceAsStream(name)) {
                if (in == null) throw new IOException("class file " + name + " not found on the class path");
                j.putNextEntry(entry(name));
                in.transferTo(j);
                j.closeEntry();
            }
        }
        j.finish();
        return true;
    }

    /** An entry with a fixed time (the jar's bytes depend on its contents only). */
    static JarEntry entry(String name) {
        JarEntry e = new JarEntry(name);
        e.setTime(FIXED_TIME);
        return e;
    }

    /** 2000-01-01, a time a zip entry can hold whatever the time zone (1980 or later). */
    static final long FIXED_TIME = 946_684_800_000L;

    /** The classes of package org.objectweb.asm (not its sub-packages), from ASM's jar or pdla's shaded jar. */
    private static void copyAsm(JarOutputStream j) throws IOException {
        Path where;
        try {
            where = Path.of(ClassReader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException("where ASM was loaded from is not a file", e);
        }
        String prefix = "org/objectweb/asm/";
        if (Files.isDirectory(where)) {
            try (var files = Files.list(where.resolve(prefix))) {
                for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
                    j.putNextEntry(entry(prefix + f.getFileName()));
                    Files.copy(f, j);
                    j.closeEntry();
                }
            }
            return;
        }
        try (java.util.jar.JarFile jar = new java.util.jar.JarFile(where.toFile())) {
            for (JarEntry e : java.util.Collections.list(jar.entries())) {
                String n = e.getName();
                if (!n.startsWith(prefix) || !n.endsWith(".class") || n.indexOf('/', prefix.length()) >= 0) continue;
                j.putNextEntry(entry(n));
                try (InputStream in = jar.getInputStream(e)) {
                    in.transferTo(j);
                }
                j.closeEntry();
            }
        }
    }
}
