package io.pdla.patterns.online;

import io.pdla.intercept.IoInterceptor;
import io.pdla.intercept.IoInterceptorProvider;

import java.util.Map;

/**
 * Registers online PDLA as {@code online}, order 150 (inside the tracer, outside redirect). It joins an open's chain
 * when named, or by itself when the hint {@value OnlineSettings#HINT_ONLINE} (or {@code PDLA_ONLINE}) turns it on.
 */
public final class OnlineProvider implements IoInterceptorProvider {
    @Override
    public String name() {
        return "online";
    }

    @Override
    public int order() {
        return 150;
    }

    @Override
    public boolean requiredFor(Map<String, String> hints, boolean writable) {
        try {
            return !writable && OnlineSettings.requested(hints);
        } catch (IllegalArgumentException e) {
            // a bad on/off value must not fail the open: online PDLA stays off (the launcher checks it first)
            return false;
        }
    }

    /**
     * With online PDLA on for the whole process ({@code pdla run --online}: {@code PDLA_ONLINE}), the rank's copies of
     * the interceptor's classes are loaded (the logger's set-up with them; an interceptor is made and dropped, which
     * makes nothing outside itself: its hand-off's thread starts only at an open), and the matcher runs over made-up passes
     * ({@link MatcherWarmup}; the launcher's agent already started it when the ranks share the matcher), so the job's
     * first open and first pass find both done.
     */
    @Override
    public void warmUp() {
        boolean on;
        try {
            on = OnlineSettings.requested(Map.of());
        } catch (IllegalArgumentException e) {
            return;   // a bad on/off value: the launcher and the open report it; online PDLA stays off
        }
        if (!on) return;
        IoInterceptorProvider.initialise(OnlineInterceptor.class, RepeatDetector.class, PatternHandoff.class,
                PatternHandoff.Item.class, PatternHandoff.Writer.class, PatternHandoff.ExitWait.class,
                OnlineInterceptor.passClass(), SpoolWriter.class,
                // made on a rank's thread at the file's hand-off, in pass 2, otherwise (with the exception its decoder names)
                PassRecord.class);
        new OnlineInterceptor();   // made and dropped: its construction's classes (the detector's maps) are loaded here
        MatcherWarmup.runOnce();
    }

    @Override
    public IoInterceptor create(Map<String, String> hints) {
        return new OnlineInterceptor();
    }
}
