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
 * Without the library (a copy of core's classes with the {@code native} directory left out, in a child JVM) the
 * driver says so in one line however many files it opens, and reads and writes through the FileChannel.
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
    void theLibraryIsBuiltWithCore() throws IOException {
        Assumptions.assumeTrue(System.getProperty("os.name").toLowerCase().contains("linux"), "built on Linux only");
        assertTrue(NativePosix.available(), "core's build should have made libpdlaposix.so: " + NativePosix.unavailableReason());
    }
}
