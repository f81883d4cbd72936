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
 * file from storage when its {@code closing} runs: what an interceptor that makes the file durable or takes its final
 * identity at close would see. Per rank (each multicore rank loads its own copy of this class).
 */
public final class CloseWitnessProvider implements IoInterceptorProvider {
    /** The file's bytes on storage when this rank's chain closed it, by the file's name (the last part of its path). */
    public static final Map<String, byte[]> SEEN_AT_CLOSING = new ConcurrentHashMap<>();

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
            public void closing(FileContext file) throws IOException {
                try (StorageFile f = file.driver().open(file.uri(), OpenOptions.readOnly())) {
                    ByteBuffer all = ByteBuffer.allocate(Math.toIntExact(f.size()));
                    while (all.hasRemaining() && f.read(all.position(), all) > 0) {
                        // read to the end
                    }
                    String path = file.uri().getPath();
                    SEEN_AT_CLOSING.put(path.substring(path.lastIndexOf('/') + 1), all.array());
                }
            }
        };
    }
}
