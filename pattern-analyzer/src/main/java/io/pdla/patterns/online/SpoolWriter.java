package io.pdla.patterns.online;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;

/**
 * The rank's side of the pattern database's spool ({@code db.PatternSpool}, which the daemon drains): where a
 * database's spool is and how one hand-off is written into it, whole (a temporary name, then a rename). Apart from
 * the database's side, which names Berkeley DB, so that the ranks of a multicore job share this one copy with the
 * online interceptor that calls it.
 */
public final class SpoolWriter {
    public static final String DIR = "online-spool";
    public static final String SUFFIX = ".pass";

    private SpoolWriter() {
    }

    public static Path dirOf(Path database) {
        return database.resolve(DIR);
    }

    /** Writes one hand-off record into the database's spool; returns the file. */
    public static Path write(Path database, byte[] record) throws IOException {
        Path dir = dirOf(database);
        Files.createDirectories(dir);
        String name = String.format("%019d-%s", System.currentTimeMillis(), UUID.randomUUID());
        Path tmp = dir.resolve("." + name + ".tmp"), done = dir.resolve(name + SUFFIX);
        Files.write(tmp, record);
        try {
            Files.move(tmp, done, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, done);
        }
        return done;
    }
}
