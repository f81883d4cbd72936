package io.pdla.storage.posix;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The library as a child JVM finds it: without it (a copy of core's classes with the {@code native} directory left
 * out) the driver says so in one line however many files it opens, and reads and writes through the FileChannel;
 * from a jar (as in pdla.jar) it is copied out and loaded.
 */
class NativeIoFallbackTest {
    @TempDir
    Path dir;

    @Test
    void withoutTheLibraryOneLineSaysSoAndTheChannelDoesTheWork() throws Exception {
        Path classes = Path.of(PosixDriver.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path testClasses = Path.of(NativeIoFallbackMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Assumptions.assumeTrue(Files.isDirectory(classes), "core's classes are not a directory: " + classes);
        Path copy = dir.resolve("classes");
        try (Stream<Path> all = Files.walk(classes)) {
            for (Path p : all.toList()) {
                Path rel = classes.relativize(p);
                if (rel.toString().startsWith("io/pdla/storage/posix/native")) continue;
                Path to = copy.resolve(rel.toString());
                if (Files.isDirectory(p)) Files.createDirectories(to);
                else Files.copy(p, to);
            }
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-cp", copy + System.getProperty("path.separator") + testClasses,
                NativeIoFallbackMain.class.getName(), dir.resolve("f").toString())
                .redirectOutput(dir.resolve("out").toFile()).redirectError(dir.resolve("err").toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM did not finish");
        String out = Files.readString(dir.resolve("out")), err = Files.readString(dir.resolve("err"));
        assertEquals(0, p.exitValue(), out + err);
        List<String> lines = err.lines().filter(l -> l.contains("native I/O unavailable")).toList();
        assertEquals(1, lines.size(), "one line for the JVM, not one per open:\n" + err);
        assertTrue(lines.get(0).startsWith("pdla posix driver: native I/O unavailable (") && lines.get(0).contains("libpdlaposix.so"), lines.get(0));
        assertTrue(out.contains("native=false") && out.contains("available=false"), out);
        assertTrue(out.contains("bytes equal"), out);
    }

    @Test
    void fromAJarTheLibraryIsCopiedOutAndLoaded() throws Exception {
        Assumptions.assumeTrue(NativePosix.available(), () -> "not built here: " + NativePosix.unavailableReason());
        Path classes = Path.of(PosixDriver.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path testClasses = Path.of(NativeIoFallbackMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Assumptions.assumeTrue(Files.isDirectory(classes), "core's classes are not a directory: " + classes);
        Path jar = dir.resolve("core.jar");
        try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> all = Files.walk(classes)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(new java.util.jar.JarEntry(classes.relativize(p).toString().replace('\\', '/')));
                Files.copy(p, out);
                out.closeEntry();
            }
        }
        String[] outErr = runChild(jar + System.getProperty("path.separator") + testClasses);
        assertTrue(outErr[0].contains("native=true") && outErr[0].contains("available=true"), outErr[0] + outErr[1]);
        assertTrue(outErr[0].contains("bytes equal"), outErr[0]);
        assertTrue(!outErr[1].contains("native I/O unavailable"), outErr[1]);
    }

    private String[] runChild(String classPath) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-cp", classPath, NativeIoFallbackMain.class.getName(), dir.resolve("g").toString())
                .redirectOutput(dir.resolve("out2").toFile()).redirectError(dir.resolve("err2").toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM did not finish");
        String out = Files.readString(dir.resolve("out2")), err = Files.readString(dir.resolve("err2"));
        assertEquals(0, p.exitValue(), out + err);
        return new String[]{out, err};
    }

    @Test
    void theLibraryIsBuiltWithCore() throws IOException {
        Assumptions.assumeTrue(System.getProperty("os.name").toLowerCase().contains("linux"), "built on Linux only");
        assertTrue(NativePosix.available(), "core's build should have made libpdlaposix.so: " + NativePosix.unavailableReason());
    }
}
