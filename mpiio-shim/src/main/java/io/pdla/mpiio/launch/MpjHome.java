package io.pdla.mpiio.launch;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the private MPJ_HOME that {@code ./pdla setup} assembles (MPJ's starter needs its jars and
 * log4j side by side, which the Debian package does not give it: see docs/mpj-express.md).
 * Looked up in: system property {@code pdla.mpjHome}, environment variable {@code MPJ_HOME}, then
 * {@code .mpj-home} in the working directory or any parent, then beside the pdla jar or any parent of it.
 */
public final class MpjHome {
    private MpjHome() {
    }

    public static Path locate() {
        for (String candidate : new String[]{System.getProperty("pdla.mpjHome"), System.getenv("MPJ_HOME")}) {
            if (candidate != null && !candidate.isBlank() && !candidate.startsWith("${") && valid(Path.of(candidate))) {
                return Path.of(candidate).toAbsolutePath();
            }
        }
        for (Path start : new Path[]{Path.of("").toAbsolutePath(), codeLocation()}) {
            for (Path dir = start; dir != null; dir = dir.getParent()) {
                Path home = dir.resolve(".mpj-home");
                if (valid(home)) return home;
            }
        }
        throw new IllegalStateException("MPJ Express home not found: run ./pdla setup (it installs libmpj-java and"
                + " assembles .mpj-home), or set MPJ_HOME to a directory with lib/starter.jar");
    }

    /** Where our classes were loaded from (the pdla jar inside a checkout), or null. */
    private static Path codeLocation() {
        try {
            return Path.of(MpjHome.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath();
        } catch (Exception e) {
            return null;
        }
    }

    static boolean valid(Path home) {
        return Files.isRegularFile(home.resolve("lib/starter.jar")) && Files.isDirectory(home.resolve("conf"));
    }
}
