package io.pdla.mpiio.programs;

import io.pdla.mpiio.File;
import io.pdla.mpiio.MPIIOException;

/** One call of a differential program on one handle, and how it ended as a comparable string (its result, or its error class). */
final class CallOutcome {
    interface Call {
        String on(File h) throws Exception;
    }

    private CallOutcome() {
    }

    static String of(File h, Call call) {
        try {
            return call.on(h);
        } catch (MPIIOException e) {
            return "error " + e.errorClass();
        } catch (Exception e) {
            return "error " + e.getClass().getName();
        }
    }
}
