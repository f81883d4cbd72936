package io.pdla.darshan;

import java.util.List;

/** The job record plus the executable line and the mount table (sorted longest path first, as darshan-util does). */
public record DarshanJob(long uid, long startSec, long startNsec, long endSec, long endNsec, long nprocs, long jobId,
                         String metadata, String exe, List<Mount> mounts) {

    /** Run time as darshan-parser computes it: with nanoseconds since 3.41, end - start + 1 before. */
    public double runTime(DarshanHeader h) {
        if (h.atLeast(3, 41)) return (endSec + endNsec / 1e9) - (startSec + startNsec / 1e9);
        return (double) (endSec - startSec + 1);
    }

    /** The mount whose path is a plain string prefix of the name, longest first; null if none. */
    public Mount mountOf(String name) {
        if (name == null) return null;
        for (Mount m : mounts) if (name.startsWith(m.path())) return m;
        return null;
    }
}
