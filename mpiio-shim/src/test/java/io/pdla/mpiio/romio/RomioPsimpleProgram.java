package io.pdla.mpiio.romio;

import io.pdla.intercept.Interceptors;
import io.pdla.mpiio.Info;

/**
 * ROMIO test/psimple.c: simple.c through the PMPI_ names, i.e. below the profiling layer. pdla's profiling
 * layer is its interceptor chain (the tracer is its profiler), so the PMPI path is the same calls with
 * interception turned off ({@code pdla_interceptors=none}); data and checks are simple.c's.
 */
public final class RomioPsimpleProgram {
    public static void main(String[] argv) throws Exception {
        Romio.run("psimple", argv, t -> RomioSimpleProgram.simple(t, new Info().set(Interceptors.HINT, "none")));
    }
}
