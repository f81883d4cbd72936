package io.pdla.patterns.db;

import com.sleepycat.bind.tuple.TupleInput;
import com.sleepycat.bind.tuple.TupleOutput;
import io.pdla.intercept.AppIdentity;
import io.pdla.pattern.PatternKey;

import java.net.URI;

/**
 * The pattern database's encoding of core's {@link PatternKey}: JE tuple bindings, so that keys sort by
 * application, then process count, then global before rank 0, 1, ..., then file URI.
 */
final class KeyTuples {
    private KeyTuples() {
    }

    static byte[] encode(PatternKey key) {
        TupleOutput out = new TupleOutput();
        out.writeString(key.command());
        out.writeInt(key.processes());
        out.writeInt(key.rank());
        out.writeString(key.file().toString());
        return out.toByteArray();
    }

    static PatternKey decode(byte[] bytes) {
        TupleInput in = new TupleInput(bytes);
        String app, file;
        int n, r;
        try {
            app = in.readString();
            n = in.readInt();
            r = in.readInt();
            file = in.readString();
        } catch (RuntimeException e) {
            // JE's tuple reader fails with IndexOutOfBounds or IllegalArgument on damaged bytes
            throw new PatternDatabaseException("corrupt pattern key (" + bytes.length + " bytes): " + e, e);
        }
        if (app == null || file == null) throw new PatternDatabaseException("corrupt pattern key (" + bytes.length + " bytes): a null field");
        try {
            return new PatternKey(new AppIdentity(app, n), r, URI.create(file));
        } catch (IllegalArgumentException e) {
            throw new PatternDatabaseException("corrupt pattern key (" + app + ", " + n + ", " + r + ", " + file + "): " + e.getMessage(), e);
        }
    }

    /** Secondary key "by application": the command alone (every process count and rank). */
    static byte[] appOf(byte[] primary) {
        TupleInput in = new TupleInput(primary);
        TupleOutput out = new TupleOutput();
        out.writeString(in.readString());
        return out.toByteArray();
    }

    /** Secondary key "by file": the file URI. */
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
}
