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
 * The jar that {@code -javaagent:} names for {@link MpiInitOnce}: the agent's own classes and ASM's core
 * package, copied from wherever this JVM loaded them (the build's directories and jars, or pdla's shaded
 * jar). Only these, and the MPI-free classes of {@link SharedClassesJar}'s jar that the agent appends, go on the
 * rank JVM's system class path: the rest of pdla (the shim, which names MPJ's classes) must stay in each multicore
 * rank's own class loader, next to MPJ's classes. Written once per JVM into the temporary directory.
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
            Path jar = Files.createTempFile("pdla-delegate-agent", ".jar");
            jar.toFile().deleteOnExit();
            Manifest m = new Manifest();
            Attributes a = m.getMainAttributes();
            a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
            a.put(new Attributes.Name("Premain-Class"), MpiInitOnce.class.getName());
            try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, m)) {
                copyAsm(j);
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
                    j.putNextEntry(new JarEntry(prefix + f.getFileName()));
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
                j.putNextEntry(new JarEntry(n));
                try (InputStream in = jar.getInputStream(e)) {
                    in.transferTo(j);
                }
                j.closeEntry();
            }
        }
    }
}
