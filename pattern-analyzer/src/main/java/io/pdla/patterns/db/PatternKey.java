package io.pdla.patterns.db;

import com.sleepycat.bind.tuple.TupleInput;
import com.sleepycat.bind.tuple.TupleOutput;

/**
 * The pattern database key, as in PDLA: the application's execution command, the number of processes, the
 * rank (null = "all", a global pattern) and the original file. Encoded with JE tuple bindings so that keys
 * sort by application, then process count, then global before rank 0, 1, ..., then file.
 */
public record PatternKey(String appCommand, int nprocs, Integer rank, String file) {
    private static final int ALL = -1;

    public PatternKey {
        if (appCommand == null || appCommand.isEmpty()) throw new IllegalArgumentException("key needs an application command");
        if (file == null || file.isEmpty()) throw new IllegalArgumentException("key needs a file");
        if (nprocs < 1) throw new IllegalArgumentException("key nprocs must be >= 1, was " + nprocs);
        if (rank != null && rank < 0) throw new IllegalArgumentException("key rank must be >= 0 or all, was " + rank);
    }

    public static PatternKey global(String app, int nprocs, String file) {
        return new PatternKey(app, nprocs, null, file);
    }

    public boolean isGlobal() {
        return rank == null;
    }

    public String scope() {
        return rank == null ? "all" : Integer.toString(rank);
    }

    byte[] encode() {
        TupleOutput out = new TupleOutput();
        out.writeString(appCommand);
        out.writeInt(nprocs);
        out.writeInt(rank == null ? ALL : rank);
        out.writeString(file);
        return out.toByteArray();
    }

    static PatternKey decode(byte[] bytes) {
        TupleInput in = new TupleInput(bytes);
        String app = in.readString();
        int n = in.readInt();
        int r = in.readInt();
        String file = in.readString();
        return new PatternKey(app, n, r == ALL ? null : r, file);
    }

    /** Secondary key "by application": the command alone (every process count and rank). */
    static byte[] appOf(byte[] primary) {
        TupleInput in = new TupleInput(primary);
        TupleOutput out = new TupleOutput();
        out.writeString(in.readString());
        return out.toByteArray();
    }

    static byte[] fileOf(byte[] primary) {
        TupleInput in = new TupleInput(primary);
        in.readString();
        in.readInt();
        in.readInt();
        TupleOutput out = new TupleOutput();
        out.writeString(in.readString());
        return out.toByteArray();
    }

    static byte[] encodeString(String s) {
        TupleOutput out = new TupleOutput();
        out.writeString(s);
        return out.toByteArray();
    }

    @Override
    public String toString() {
        return "(" + appCommand + ", " + nprocs + " procs, rank " + scope() + ", " + file + ")";
    }
}
