package io.pdla.mpiio.launch;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher hands the shared classes' jar to the agent of multicore jobs only, unless PDLA_SHARED_CLASSES=false;
 * the jar holds the listed classes this JVM has (core's, here) and nothing of the shim; a bad value is refused, named.
 */
class SharedClassesJarTest {
    @Test
    void multicoreJobsGetTheJarWithCoreAndWithoutTheShim() throws Exception {
        String agent = agentArgument(MpjJob.builder("Main").build().command());
        int at = agent.indexOf("=" + MpiInitOnce.SHARED_ARGUMENT);
        assertTrue(at > 0, agent);
        Path jar = Path.of(agent.substring(at + 1 + MpiInitOnce.SHARED_ARGUMENT.length()));
        assertTrue(Files.isRegularFile(jar), jar.toString());
        try (JarFile j = new JarFile(jar.toFile())) {
            assertNotNull(j.getEntry("io/pdla/storage/StorageFile.class"));
            assertNotNull(j.getEntry("io/pdla/intercept/InterceptorChain.class"));
            assertNull(j.getEntry("io/pdla/mpiio/File.class"), "the shim stays per rank");
            assertTrue(j.stream().allMatch(e -> e.getName().startsWith("io/pdla/") || e.getName().startsWith("META-INF/")),
                    "pdla's classes only, no third-party library");
            assertFalse(j.stream().anyMatch(e -> e.getName().startsWith("io/pdla/mpiio/")));
        }
    }

    @Test
    void sharingOffAndOtherDevicesPassNoJar() {
        assertEquals(-1, agentArgument(MpjJob.builder("Main").env(SharedClassesJar.ENV, "false").build().command()).indexOf('='));
        assertEquals(-1, agentArgument(MpjJob.builder("Main").device("niodev").build().command()).indexOf('='));
        assertEquals(-1, agentArgument(MpjJob.builder("Main").device("hybdev").build().command()).indexOf('='));
    }

    @Test
    void aValueThatIsNotAFlagIsRefusedNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MpjJob.builder("Main").env(SharedClassesJar.ENV, "maybe").build().command());
        assertTrue(e.getMessage().contains("PDLA_SHARED_CLASSES='maybe'"), e.getMessage());
    }

    private static String agentArgument(List<String> command) {
        return command.stream().filter(a -> a.startsWith("-javaagent:")).findFirst().orElseThrow();
    }
}
