package io.pdla.patterns.global;

import io.pdla.pattern.Geometry;
import io.pdla.patterns.template.Notation;
import io.pdla.patterns.template.OpMix;
import io.pdla.patterns.template.PatternKind;
import io.pdla.patterns.template.Temporal;

import java.util.Arrays;
import java.util.List;

/**
 * A pattern of the whole application on one file, the union of the member local patterns. Its geometry
 * enumerates every member's bytes; the rank dimension is one or more of its levels.
 */
public record GlobalPattern(int fileId, PatternKind kind, OpMix ops, Geometry geometry, List<MemberRef> members,
                            long requests, long requestBytes, int repetitions, long[] requestSizes, Temporal temporal) {
    public GlobalPattern {
        members = List.copyOf(members);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GlobalPattern g && fileId == g.fileId && kind == g.kind && ops == g.ops
                && geometry.equals(g.geometry) && members.equals(g.members) && requests == g.requests
                && requestBytes == g.requestBytes && repetitions == g.repetitions
                && Arrays.equals(requestSizes, g.requestSizes) && temporal.equals(g.temporal);
    }

    @Override
    public int hashCode() {
        return geometry.hashCode() * 31 + members.hashCode();
    }

    public String notation() {
        int lo = members.get(0).rank(), hi = members.get(members.size() - 1).rank();
        return "global[" + members.size() + " ranks " + lo + ".." + hi + "] "
                + Notation.format(ops, geometry, requestSizes, requests, repetitions, temporal);
    }

    @Override
    public String toString() {
        return "file " + fileId + " " + notation();
    }
}
