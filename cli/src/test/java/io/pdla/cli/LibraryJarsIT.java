package io.pdla.cli;

import io.pdla.mpiio.launch.MpjHome;
import io.pdla.mpiio.launch.MpjJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The library works on its own: an MPJ application compiled and run against the library jars alone (core,
 * mpiio-shim and what the shim needs at run time; no HDFS driver, no Hadoop, not the CLI jar) writes, reads and
 * verifies a strided shared file. It runs in cli's {@code integration-test} phase, after {@code package}, because
 * it needs the modules' jars rather than their class folders: {@code dependency:copy-dependencies} puts exactly
 * those jars in {@code target/library-jars} (see cli/pom.xml), and cli is the module that depends on them all.
 */
class LibraryJarsIT {
    @TempDir
    Path tmp;

    private static List<Path> libraryJars() throws IOException {
        Path dir = Path.of(System.getProperty("pdla.libraryJars", "target/library-jars"));
        assertTrue(Files.isDirectory(dir), "no " + dir + ": run through mvn (package puts the library jars there)");
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
    }

    @Test
    void theLibraryJarsNeitherBundleNorReferenceHadoopOrTheCli() throws IOException {
        List<Path> jars = libraryJars();
        List<String> names = jars.stream().map(p -> p.getFileName().toString()).toList();
        assertTrue(names.stream().anyMatch(n -> n.startsWith("pdla-core-")), names.toString());
        assertTrue(names.stream().anyMatch(n -> n.startsWith("pdla-mpiio-shim-")), names.toString());
        assertFalse(names.stream().anyMatch(n -> n.contains("hadoop") || n.contains("hdfs") || n.startsWith("pdla-cli") || n.equals("pdla.jar")),
                names.toString());
        for (Path jar : jars) {
            try (JarFile j = new JarFile(jar.toFile())) {
                for (Enumeration<JarEntry> e = j.entries(); e.hasMoreElements(); ) {
                    JarEntry entry = e.nextElement();
                    if (!entry.getName().endsWith(".class")) continue;
                    assertFalse(entry.getName().startsWith("org/apache/hadoop/"), jar + " bundles " + entry.getName());
                    try (InputStream in = j.getInputStream(entry)) {
                        // a class naming a Hadoop class keeps it in its constant pool as org/apache/hadoop/...
                        String text = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
                        assertFalse(text.contains("org/apache/hadoop/"), jar.getFileName() + ": " + entry.getName() + " references Hadoop");
                    }
                }
            }
        }
    }

    @Test
    void anMpjApplicationRunsAgainstTheLibraryJarsAlone() throws Exception {
        List<Path> jars = libraryJars();
        Path src = tmp.resolve("src/LibraryUser.java"), classes = tmp.resolve("classes");
        Files.createDirectories(src.getParent());
        Files.createDirectories(classes);
        try (InputStream in = LibraryJarsIT.class.getResourceAsStream("/library-user/LibraryUser.java")) {
            Files.write(src, in.readAllBytes());
        }

        List<String> compileCp = new ArrayList<>();
        compileCp.add(MpjHome.locate().resolve("lib/mpj.jar").toString());
        jars.forEach(j -> compileCp.add(j.toString()));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int rc = javac.run(null, diagnostics, diagnostics, "-cp", String.join(java.io.File.pathSeparator, compileCp),
                "-d", classes.toString(), src.toString());
        assertEquals(0, rc, "the application compiles against mpj.jar and the library jars: " + diagnostics);

        List<String> runCp = new ArrayList<>();
        runCp.add(classes.toString());
        jars.forEach(j -> runCp.add(j.toString()));
        Path file = tmp.resolve("shared.dat");
        MpjJob.Result r = MpjJob.builder("LibraryUser").processes(3).classPath(runCp).args(List.of(file.toString()))
                .build().run(180);
        String out = r.output();
        System.out.println(out);
        assertFalse(r.timedOut(), out);
        assertTrue(out.contains("PASS: 3 ranks, 196608 bytes verified"), "the application verified its data:\n" + out);
        assertFalse(out.contains("FAIL"), out);
        // a class of the native binding missing from the ranks' shared-classes jar cost every rank JVM its native I/O
        assertFalse(out.contains("native I/O unavailable"), "the ranks' POSIX driver lost its native I/O:\n" + out);
        assertTrue(out.contains("without the HDFS driver:") && out.contains("hdfs"), "an hdfs: name is refused, naming the scheme:\n" + out);
        assertEquals(3L * 16 * 4096, Files.size(file));
    }

    /**
     * The POSIX driver's JNI library comes out of the core jar as a copy in the temporary directory. A JVM that was
     * halted (as MPJ's daemons and killed rank JVMs end) never ran deleteOnExit and left one copy per JVM: 305 of them
     * in a day's /tmp here. The copy is deleted once loaded, so none is left even by a halt.
     */
    @Test
    void theNativeLibrarysCopyIsGoneOnceLoadedEvenWhenTheJvmIsHalted() throws Exception {
        List<Path> jars = libraryJars();
        Path src = tmp.resolve("probe/NativeProbe.java"), classes = tmp.resolve("probe-classes"), jvmTmp = tmp.resolve("jvm-tmp");
        Files.createDirectories(src.getParent());
        Files.createDirectories(classes);
        Files.createDirectories(jvmTmp);
        Files.writeString(src, """
                public class NativeProbe {
                    public static void main(String[] a) throws Exception {
                        System.out.println("available=" + io.pdla.storage.posix.NativePosix.available()
                                + " reason=" + io.pdla.storage.posix.NativePosix.unavailableReason());
                        try (var s = java.nio.file.Files.list(java.nio.file.Path.of(System.getProperty("java.io.tmpdir")))) {
                            System.out.println("left=" + s.filter(p -> p.getFileName().toString().startsWith("libpdlaposix")).count());
                        }
                        Runtime.getRuntime().halt(0);
                    }
                }
                """);
        String cp = String.join(java.io.File.pathSeparator, jars.stream().map(Path::toString).toList());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        assertEquals(0, javac.run(null, diagnostics, diagnostics, "-cp", cp, "-d", classes.toString(), src.toString()), diagnostics.toString());
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + jvmTmp, "-cp", classes + java.io.File.pathSeparator + cp, "NativeProbe")
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the probe JVM did not end within 60 s");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(out.contains("available=true"), "the JNI library loads from the core jar's copy:\n" + out);
        assertTrue(out.contains("left=0"), "no copy left in the temporary directory while the JVM runs:\n" + out);
        try (Stream<Path> left = Files.list(jvmTmp)) {
            assertEquals(List.of(), left.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("libpdlaposix")).toList(),
                    "copies left after a halted JVM");
        }
    }
}
