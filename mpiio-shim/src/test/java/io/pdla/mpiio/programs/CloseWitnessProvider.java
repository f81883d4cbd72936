package io.pdla.mpiio.programs;

import io.pdla.intercept.FileContext;
import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.IoInterceptorProvider;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test interceptor outside the delegates (order 150, where redirect's 200 and the tracer sit) that reads the whole
 * file from storage when its {@code closed} runs: what an interceptor that takes the file's final identity at close
 * (redirect ending its write session) sees. Per rank (each multicore rank loads its own copy of this class).
 */
public final class CloseWitnessProvider implements IoInterceptorProvider {
    /** The file's bytes on storage when this rank's chain was told the file closed, by its name (the last part of its path). */
    public static final Map<String, byte[]> SEEN_WHEN_CLOSED = new ConcurrentHashMap<>();

    /** A directory where each rank's closed hook leaves a mark, and where rank 0 asks for the meeting after them. */
    public static final String MARKS = "test_witness_marks";

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String name() {
        return "test-close-witness";
    }

    @Override
    public int order() {
        return 150;
    }

    @Override
    public IoInterceptor create(Map<String, String> hints) {
        return new IoInterceptor() {
            /** With hint {@code test_witness_marks} (a directory): rank 0 alone asks for the meeting after the closed hooks. */
            @Override
            public boolean meetsAfterClosed(FileContext file) {
                return file.hints().get(MARKS) != null && file.rank() == 0;
            }

            @Override
            public void closed(FileContext file) throws IOException {
                String marks = file.hints().get(MARKS);
                if (marks != null) {
                    // the last rank's hook is slow: a rank that left close before it ran would not find its mark
                    if (file.rank() == file.commSize() - 1) sleep(300);
                    Files.createFile(Path.of(marks, "closed-" + file.rank()));
                }
                try (StorageFile f = file.driver().open(file.uri(), OpenOptions.readOnly())) {
                    ByteBuffer all = ByteBuffer.allocate(Math.toIntExact(f.size()));
                    while (all.hasRemaining() && f.read(all.position(), all) > 0) {
                        // read to the end
                    }
                    String path = file.uri().getPath();
                    SEEN_WHEN_CLOSED.put(path.substring(path.lastIndexOf('/') + 1), all.array());
                }
            }
        };
    }
}
