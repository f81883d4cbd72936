package io.pdla.cli;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;

/** Where pdla's own classes come from, so that jobs started by the CLI get the shim on their class path. */
final class PdlaJar {
    private PdlaJar() {
    }

    /** The shaded pdla.jar when running from it; the current class path otherwise (tests, IDE). */
    static List<String> classPath() {
        try {
            Path self = Path.of(PdlaJar.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (self.toString().endsWith(".jar")) return List.of(self.toString());
        } catch (URISyntaxException | SecurityException e) {
            // fall through to the JVM's class path
        }
        return io.pdla.mpiio.launch.MpjJob.currentClassPath();
    }
}
