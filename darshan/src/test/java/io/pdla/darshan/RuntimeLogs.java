package io.pdla.darshan;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The logs the real Darshan runtime (3.5.0) wrote for IOR and a Python program on the project's machine, kept as test
 * resources under {@code runtime-logs/} (how they were made: the README there). Other modules read them through
 * darshan's test-jar; a command needs a file, so each is copied to {@code target/runtime-logs/} of the module whose
 * tests run.
 */
public final class RuntimeLogs {
    public static final String IOR_POSIX = "ior-posix-4p-16k.darshan";
    public static final String IOR_MPIIO = "ior-mpiio-4p-16k.darshan";
    public static final String IOR_MPIIO_COLLECTIVE = "ior-mpiio-collective-4p-16k.darshan";
    public static final String IOR_NO_DXT = "ior-posix-4p-16k-no-dxt.darshan";
    public static final String PYTHON = "python-strided-rw.darshan";
    public static final List<String> NAMES = List.of(IOR_POSIX, IOR_MPIIO, IOR_MPIIO_COLLECTIVE, IOR_NO_DXT, PYTHON);

    /** Every IOR run's parameters: 4 tasks, {@code -b 16k -t 16k -s 16}. */
    public static final int IOR_TASKS = 4, IOR_BLOCK = 16 << 10, IOR_SEGMENTS = 16;

    private RuntimeLogs() {}

    /** The log as a file. */
    public static synchronized Path get(String name) throws IOException {
        if (!NAMES.contains(name)) throw new IllegalArgumentException("no runtime log " + name + " (there are: " + NAMES + ")");
        byte[] bytes = bytes(name);
        Path dir = Path.of("").toAbsolutePath().resolve("target/runtime-logs"), p = dir.resolve(name);
        Files.createDirectories(dir);
        if (!Files.exists(p) || !Arrays.equals(Files.readAllBytes(p), bytes)) {
            // whole or not at all: another test JVM of the module may be reading the same file
            Path tmp = Files.createTempFile(dir, name, ".tmp");
            Files.write(tmp, bytes);
            Files.move(tmp, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        return p;
    }

    public static List<Path> all() throws IOException {
        List<Path> out = new ArrayList<>();
        for (String n : NAMES) out.add(get(n));
        return out;
    }

    /** The log's bytes, from the classpath. */
    public static byte[] bytes(String name) throws IOException {
        try (InputStream in = RuntimeLogs.class.getResourceAsStream("/runtime-logs/" + name)) {
            if (in == null) throw new IOException("test resource /runtime-logs/" + name + " missing from the classpath");
            return in.readAllBytes();
        }
    }
}
