package io.pdla.simpfs;

import io.pdla.intercept.FileContext;
import io.pdla.intercept.IoCall;
import io.pdla.intercept.IoInterceptor;
import io.pdla.simpfs.store.SimPfsFile;

import java.io.IOException;
import java.util.Map;

/**
 * Binds each rank's open sim-pfs files to that rank's request stream and marks collective calls in it, which
 * the driver alone cannot see: before a collective call the stream gets a collective point (a barrier for
 * the timing engine). Files of other drivers pass through untouched.
 */
public final class SimPfsTimingInterceptor implements IoInterceptor {
    private final String session;

    public SimPfsTimingInterceptor(Map<String, String> hints) {
        this.session = hints.getOrDefault(SimPfsDriver.HINT_SESSION, SimPfsDriver.DEFAULT_SESSION);
    }

    @Override
    public void opened(FileContext file) throws IOException {
        if (file.file().unwrapped() instanceof SimPfsFile f && file.driver() instanceof SimPfsDriver d) {
            // each open names its session: the interceptor is one per rank, created with the first open's hints
            String s = file.hints().getOrDefault(SimPfsDriver.HINT_SESSION, session);
            f.recordTo(d.recorder(d.fileSystem(file.hints()), s, file.rank()));
        }
    }

    @Override
    public long intercept(IoCall call, Chain next) throws IOException {
        if (call.collective() && call.op().movesData() && call.file().file().unwrapped() instanceof SimPfsFile f) {
            f.recordCollectivePoint();
        }
        return next.proceed(call);
    }
}
