package io.pdla.mpiio.programs;

import io.pdla.intercept.FileContext;
import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.IoInterceptorProvider;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.nio.ByteBuffer;
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
            @Override
            public void closed(FileContext file) throws IOException {
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
