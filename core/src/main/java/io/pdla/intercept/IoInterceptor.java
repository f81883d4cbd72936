package io.pdla.intercept;

import java.io.IOException;

/**
 * A PMPI-like hook on every file operation of the shim. Interceptors are ordered (the tracer outermost,
 * then redirect, then delegates, then the driver) and each sees the call before and after the ones
 * inside it.
 *
 * <p>Rule of the chain: {@link #intercept} calls {@code next.proceed} <em>at most once</em>. Proceeding
 * passes the call on; returning without proceeding means the interceptor handled it itself (redirect
 * serving a read from a replica). Proceeding twice is an error the chain reports, naming the interceptor.
 */
public interface IoInterceptor {
    /** After the driver opened the file. */
    default void opened(FileContext file) throws IOException {
    }

    /** Returns the number of bytes moved (0 for metadata operations). */
    default long intercept(IoCall call, Chain next) throws IOException {
        return next.proceed(call);
    }

    /** Before the driver closes the file. */
    default void closing(FileContext file) throws IOException {
    }

    /**
     * After the driver closed the file without error: its size and modification time are final now (HDFS,
     * for one, stamps the time only at close), so this is where what vouches for them belongs.
     */
    default void closed(FileContext file) throws IOException {
    }

    /** The rest of the chain, as seen from one interceptor. */
    interface Chain {
        long proceed(IoCall call) throws IOException;
    }
}
