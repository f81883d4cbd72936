package io.pdla.collective;

/**
 * When a file's collective reads may run without meeting. A collective read whose ranks' requests lie side by side
 * (IOR {@code -c}'s shape) is decided "independent": each rank reads its own bytes, and the call's one all-gather only
 * decides that and shares the outcome. That meeting is most of such a call's cost (four rank threads on two cores
 * hand the cores to each other at every call: 16 KiB collective reads ran at a third of the same reads made
 * independently), and MPI does not ask for it: a collective I/O call need not synchronise, and ROMIO's collective
 * reads decided independent return each process's own outcome.
 *
 * <p>So once {@link #STEADY_CALLS} met reads in a row were decided independent, the next {@link #FIRST_RUN} reads
 * skip the engine's all-gather and the shim's agreement, then one read meets again as a check: while the checks keep
 * deciding independent the runs double, up to {@link #MAX_RUN}; anything else at a met call (two-phase, a write, a
 * veto, pieces, a rank that turned the hint off) ends the runs and the count starts again. Every rank keeps this schedule from the same gathered
 * rows and counts the same calls (MPI: every rank makes the file's collective calls in one order), so all skip the
 * same calls and nobody waits for a rank that did not come. What a skipped read gives up: its outcome is its own
 * rank's (a failure raises on that rank alone), and a run may read independently a few calls that two-phase would
 * have served better; bytes are never wrong, as each rank reads the file itself. Reads only: a write must know that
 * no rank vetoed it.
 */
final class SteadyReads {
    /** Met independent reads in a row before the first run without meetings. */
    static final int STEADY_CALLS = 4;
    static final int FIRST_RUN = 8;
    /** Longest run between two checks: 64 calls of 16 KiB make one meeting per 4 MiB read by four ranks. */
    static final int MAX_RUN = 64;

    private int steady;
    private int nextRun = FIRST_RUN;
    private int left;

    /** Whether the next collective read skips its meetings. */
    boolean skipsNext() {
        return left > 0;
    }

    /** A read ran without meeting; {@code lastPiece}: the call's last piece on this rank (the call is done). */
    void skipped(boolean lastPiece) {
        if (lastPiece) left--;
    }

    /**
     * A call met: {@code steadyRead} when it was a read of one piece on every rank, decided independent, with every
     * rank allowing lazy reads. The same on every rank, from the call's gathered rows.
     */
    void met(boolean steadyRead) {
        if (!steadyRead) {
            reset();
            return;
        }
        if (++steady >= STEADY_CALLS) {
            left = nextRun;
            nextRun = Math.min(MAX_RUN, 2 * nextRun);
        }
    }

    /** Back to meeting at every call. */
    private void reset() {
        steady = 0;
        nextRun = FIRST_RUN;
        left = 0;
    }
}
