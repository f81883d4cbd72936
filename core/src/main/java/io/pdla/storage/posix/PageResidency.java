package io.pdla.storage.posix;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Whether a file's pages are in this host's page cache, judged from a few pages spread over it ({@code mincore(2)},
 * through {@link MappedByteBuffer#isLoaded}). Why: the drivers' common wish to bypass the cache, made for a file that
 * is read once (a replica's copy of its original), is worth taking only while the file is not cached: a copy out of
 * memory costs less than a read from the disk, and a read around the cache costs no copy into it.
 */
final class PageResidency {
    static final int SAMPLES = 16;
    private static final int PAGE = 4096;

    private PageResidency() {
    }

    /** How many of {@link #SAMPLES} pages spread evenly over the file are resident (0 for an empty file). */
    static int residentSamples(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size == 0) return 0;
            long pages = (size + PAGE - 1) / PAGE;
            int resident = 0;
            for (int i = 0; i < SAMPLES; i++) {
                long page = pages * i / SAMPLES;
                long at = page * PAGE;
                MappedByteBuffer one = ch.map(FileChannel.MapMode.READ_ONLY, at, Math.min(PAGE, size - at));
                if (one.isLoaded()) resident++;
            }
            return resident;
        }
    }

    /** Whether fewer than a quarter of the sampled pages are resident; false when the file cannot be sampled. */
    static boolean mostlyCold(Path path) {
        try {
            return residentSamples(path) < SAMPLES / 4;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
