package io.pdla.intercept;

import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.util.List;

/**
 * Runs a call through the interceptors and then the driver. With no interceptors it calls the driver
 * directly, so the shim costs nothing extra when tracing and redirection are off.
 */
public final class InterceptorChain {
    private final List<IoInterceptor> interceptors;

    public InterceptorChain(List<IoInterceptor> interceptors) {
        this.interceptors = List.copyOf(interceptors);
    }

    public static InterceptorChain empty() {
        return new InterceptorChain(List.of());
    }

    public List<IoInterceptor> interceptors() {
        return interceptors;
    }

    public void opened(FileContext file) throws IOException {
        for (IoInterceptor i : interceptors) i.opened(file);
    }

    /** Interceptors are told in reverse order, so the outermost hears of the close last (wrapping order). */
    public void closing(FileContext file) throws IOException {
        IOException first = inReverse(i -> i.closing(file));
        try {
            file.closeStore();
        } catch (IOException e) {
            if (first == null) first = e;
        } catch (Exception e) {
            if (first == null) first = new IOException(e);
        }
        if (first != null) throw first;
    }

    /** After the store closed cleanly; in reverse order, as {@link #closing}. */
    public void closed(FileContext file) throws IOException {
        IOException first = inReverse(i -> i.closed(file));
        if (first != null) throw first;
    }

    private interface Hook {
        void tell(IoInterceptor interceptor) throws IOException;
    }

    /** Tells every interceptor, innermost first, even after one failed; returns the first failure. */
    private IOException inReverse(Hook hook) {
        IOException first = null;
        for (int i = interceptors.size() - 1; i >= 0; i--) {
            try {
                hook.tell(interceptors.get(i));
            } catch (IOException e) {
                if (first == null) first = e;
            }
        }
        return first;
    }

    public long execute(IoCall call) throws IOException {
        if (interceptors.isEmpty()) return Driver.execute(call);
        return new Link(0).proceed(call);
    }

    /** The chain from interceptor {@code index} inward; remembers whether it was already used. */
    private final class Link implements IoInterceptor.Chain {
        private final int index;
        private boolean used;

        Link(int index) {
            this.index = index;
        }

        @Override
        public long proceed(IoCall call) throws IOException {
            if (used) {
                throw new IllegalStateException("interceptor " + interceptors.get(index - 1).getClass().getName()
                        + " proceeded twice with " + call + "; the chain allows at most once");
            }
            used = true;
            if (index == interceptors.size()) return Driver.execute(call);
            return interceptors.get(index).intercept(call, new Link(index + 1));
        }
    }

    /** The end of every chain: the driver's positional operations. */
    static final class Driver {
        private Driver() {
        }

        static long execute(IoCall call) throws IOException {
            StorageFile f = call.file().file();
            switch (call.op()) {
                case READ:
                    return f.readv(call.extents(), call.buffer());
                case WRITE:
                    return f.writev(call.extents(), call.buffer());
                case SYNC:
                    f.sync();
                    return 0;
                case SET_SIZE:
                    f.setSize(call.argument());
                    return 0;
                default:
                    return 0;
            }
        }
    }
}
