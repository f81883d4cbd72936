package io.pdla.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The status files the job's ranks write into {@code PDLA_STATUS_DIR} (RankMain: a line "0" or "1", a line
 * "rank R on HOST", then a failure's exception). The launcher reads them while the job runs, to learn of a failed
 * rank before MPJ's starter ends (which, under niodev, it does only when every rank JVM has ended), and at the
 * end, to count.
 */
final class RankStatuses {
    /** One rank's status: whether it failed, who it was, and the first line of its exception. */
    record Status(boolean failed, String who, String cause) {
        String describe() {
            return who + (failed ? " failed" + (cause.isEmpty() ? "" : ": " + cause) : " finished");
        }
    }

    private final Path dir;

    RankStatuses(Path dir) {
        this.dir = dir;
    }

    /** The statuses written so far, oldest first (files being written are not listed: RankMain renames them in). */
    List<Status> read() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = new ArrayList<>(s.filter(f -> f.getFileName().toString().startsWith("rank-")).toList());
        }
        files.sort(Comparator.comparingLong(RankStatuses::modified));
        List<Status> statuses = new ArrayList<>();
        for (Path f : files) {
            String text;
            try {
                text = Files.readString(f);
            } catch (java.nio.file.NoSuchFileException gone) {
                continue;
            }
            statuses.add(parse(text));
        }
        return statuses;
    }

    /** The first failed rank's status so far, or null. */
    Status firstFailure() throws IOException {
        return read().stream().filter(Status::failed).findFirst().orElse(null);
    }

    static Status parse(String text) {
        List<String> lines = text.lines().toList();
        boolean failed = lines.isEmpty() || !lines.get(0).trim().equals("0");
        String who = lines.size() > 1 && lines.get(1).startsWith("rank ") ? lines.get(1).trim() : "a rank";
        String cause = lines.size() > 2 ? lines.get(2).trim() : "";
        return new Status(failed, who, cause);
    }

    /** Removes the directory and what the ranks wrote into it; a rank still writing after the end is no error. */
    void delete() {
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.toList()) Files.deleteIfExists(f);
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a rank stopped while it wrote its status may leave a file: a temporary directory is no reason to fail
        }
    }

    private static long modified(Path f) {
        try {
            return Files.getLastModifiedTime(f).toMillis();
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }
}
