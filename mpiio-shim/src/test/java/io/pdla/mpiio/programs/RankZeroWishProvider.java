package io.pdla.mpiio.programs;

import io.pdla.intercept.FileContext;
import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.IoInterceptorProvider;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test interceptor ({@code pdla_interceptors=test-rank-zero-wish}) that wants rank 0's share at an open only on the
 * rank a file's name picks ({@code wanted-by-R}), and shares in {@code opened} only when the open says some rank
 * wanted it, as redirect does with its index of replicated originals. It records, by file name, what each open told
 * it and what it received, so that {@code RankZeroWishProgram} can check that all ranks agreed. Per rank (each
 * multicore rank loads its own copy of this test class).
 */
public final class RankZeroWishProvider implements IoInterceptorProvider {
    public static final String NAME = "test-rank-zero-wish";
    /** File name -> "wanted=B shared=S" as this rank's opened hook saw it (S: rank 0's bytes, or "-" when it did not share). */
    public static final Map<String, String> SEEN = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int order() {
        return 200;
    }

    private static String nameOf(FileContext file) {
        String path = file.uri().getPath();
        return path.substring(path.lastIndexOf('/') + 1);
    }

    @Override
    public IoInterceptor create(Map<String, String> hints) {
        return new IoInterceptor() {
            @Override
            public boolean wantsRankZeroAtOpen(FileContext file) {
                return nameOf(file).equals("wanted-by-" + file.rank());
            }

            @Override
            public void opened(FileContext file) throws IOException {
                boolean wanted = file.rankZeroWantedAtOpen();
                String shared = "-";
                if (wanted) shared = new String(file.shareFromRankZero(() -> ("from rank " + file.rank()).getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
                SEEN.put(nameOf(file), "wanted=" + wanted + " shared=" + shared);
            }
        };
    }
}
