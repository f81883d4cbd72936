package io.pdla.mpiio.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher's jars are kept by content in a directory only its user may enter: the same bytes make the same file
 * (no new file per job), other bytes another; nothing half-written is left; a directory others may write into, or
 * one that is a link, is not used.
 */
class LaunchJarsTest {
    @TempDir
    Path tmp;

    @Test
    void theSameContentsReuseOneFileAndOthersGetTheirOwn() throws IOException {
        Path dir = tmp.resolve("jars");
        Path a = LaunchJars.store(dir, "pdla-x", out -> { out.write("one".getBytes(StandardCharsets.UTF_8)); return true; });
        Path again = LaunchJars.store(dir, "pdla-x", out -> { out.write("one".getBytes(StandardCharsets.UTF_8)); return true; });
        Path b = LaunchJars.store(dir, "pdla-x", out -> { out.write("two".getBytes(StandardCharsets.UTF_8)); return true; });
        assertEquals(a, again);
        assertNotEquals(a, b);
        assertEquals(dir, a.getParent());
        assertArrayEquals("one".getBytes(StandardCharsets.UTF_8), Files.readAllBytes(a));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        assertEquals(List.of(a.getFileName().toString(), b.getFileName().toString()).stream().sorted().toList(), names(dir),
                "two jars and no temporary file");
    }

    @Test
    void aNewBuildsJarRemovesJarsUnusedForAWeekAndReuseKeepsOneInUse() throws IOException {
        Path dir = tmp.resolve("jars");
        Path old = LaunchJars.store(dir, "pdla-x", out -> { out.write(1); return true; });
        Path used = LaunchJars.store(dir, "pdla-x", out -> { out.write(2); return true; });
        Path other = LaunchJars.store(dir, "pdla-y", out -> { out.write(1); return true; });
        java.nio.file.attribute.FileTime longAgo = java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - LaunchJars.KEEP_UNUSED.toMillis() - 60_000);
        for (Path p : List.of(old, used, other)) Files.setLastModifiedTime(p, longAgo);
        assertEquals(used, LaunchJars.store(dir, "pdla-x", out -> { out.write(2); return true; }), "reused, so in use again");
        LaunchJars.store(dir, "pdla-x", out -> { out.write(3); return true; });   // a new build's jar
        assertFalse(Files.exists(old), "unused for longer than a week");
        assertTrue(Files.exists(used));
        assertTrue(Files.exists(other), "another prefix's jars are its own launcher's to remove");
    }

    @Test
    void contentsThatHoldNothingOrFailLeaveNothing() {
        Path dir = tmp.resolve("jars");
        assertNull(assertDoesNotThrowIo(() -> LaunchJars.store(dir, "pdla-x", out -> false)));
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> LaunchJars.store(dir, "pdla-x", out -> { out.write(1); throw new IOException("class file gone"); }));
        assertEquals("class file gone", e.getMessage());
        assertEquals(List.of(), names(dir));
    }

    @Test
    void aDirectoryOthersMayWriteIntoOrALinkIsNotUsed() throws IOException {
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), Files.createDirectory(tmp.resolve("private"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))));
        assertFalse(LaunchJars.trusted(open));
        assertFalse(LaunchJars.trusted(link));
        assertTrue(LaunchJars.trusted(tmp.resolve("private")));
        Path jar = LaunchJars.store(open, "pdla-x", out -> { out.write(7); return true; });
        assertNotEquals(open, jar.getParent(), "written into a new private directory instead");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(jar.getParent())));
        assertEquals(List.of(), names(open));
    }

    @Test
    void theLaunchersJarsAreTheSameBytesWheneverWrittenSoEveryJobOfABuildSharesOne() throws IOException {
        java.io.ByteArrayOutputStream one = new java.io.ByteArrayOutputStream(), two = new java.io.ByteArrayOutputStream();
        assertTrue(DelegateAgentJar.write(one));
        assertTrue(DelegateAgentJar.write(two));
        assertArrayEquals(one.toByteArray(), two.toByteArray());
        one.reset();
        two.reset();
        assertTrue(SharedClassesJar.write(one, LaunchJarsTest.class.getClassLoader()));
        assertTrue(SharedClassesJar.write(two, LaunchJarsTest.class.getClassLoader()));
        assertArrayEquals(one.toByteArray(), two.toByteArray());

        Path agent = DelegateAgentJar.path();
        assertTrue(agent.getFileName().toString().matches("pdla-delegate-agent-[0-9a-f]{64}\\.jar"), agent.toString());
        try (JarFile j = new JarFile(agent.toFile())) {
            assertEquals(MpiInitOnce.class.getName(), j.getManifest().getMainAttributes().getValue("Premain-Class"));
            assertNotNull(j.getEntry("org/objectweb/asm/ClassReader.class"));
            assertTrue(j.stream().allMatch(e -> e.getTime() == DelegateAgentJar.FIXED_TIME), "every entry has the fixed time");
        }
        assertTrue(agent.getParent().getFileName().toString().startsWith("pdla-jars"), agent.toString());
    }

    private interface IoCall<T> {
        T call() throws IOException;
    }

    private static <T> T assertDoesNotThrowIo(IoCall<T> c) {
        try {
            return c.call();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> names(Path dir) {
        if (!Files.exists(dir)) return List.of();
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
