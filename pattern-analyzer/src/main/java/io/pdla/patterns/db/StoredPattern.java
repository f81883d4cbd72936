package io.pdla.patterns.db;

import io.pdla.patterns.global.GlobalPattern;
import io.pdla.patterns.global.MemberRef;
import io.pdla.pattern.Geometry;
import io.pdla.patterns.template.LocalPattern;
import io.pdla.patterns.template.Notation;
import io.pdla.patterns.template.OpMix;
import io.pdla.patterns.template.PatternKind;
import io.pdla.patterns.template.Temporal;

import java.util.Arrays;
import java.util.List;

/**
 * One pattern as stored: its closed form (enough for the redirect layer's positionOf) and its description.
 *
 * @param members     for a global pattern, the local patterns it is made of; empty for a local one
 * @param globalIndex for a local pattern that is part of a global one, the global's index in the
 *                    (app, nprocs, all, file) entry; null otherwise
 */
public record StoredPattern(PatternKind kind, OpMix ops, Geometry.Spec geometry, long requests, long requestBytes,
                            int repetitions, long[] requestSizes, Temporal temporal, List<MemberRef> members,
                            Integer globalIndex, String notation) {
    public StoredPattern {
        members = members == null ? List.of() : List.copyOf(members);
        // JSON written before grouped geometries existed has no groups field, which Jackson reads as 0
        if (geometry != null && geometry.groups() == 0 && geometry.groupStride() == 0) {
            geometry = new Geometry.Spec(geometry.start(), geometry.segOffsets(), geometry.segLengths(), geometry.strides(),
                    geometry.counts(), geometry.totalBytes());
        }
        if (geometry != null && geometry.groups() != 1) throw new IllegalArgumentException("the pattern database holds analysed patterns, which are never grouped: " + geometry);
    }

    public static StoredPattern of(LocalPattern p, Integer globalIndex) {
        return new StoredPattern(p.kind(), p.ops(), p.geometry().spec(), p.requests(), p.requestBytes(),
                p.repetitions(), p.requestSizes(), p.temporal(), List.of(), globalIndex, Notation.local(p));
    }

    public static StoredPattern of(GlobalPattern g) {
        return new StoredPattern(g.kind(), g.ops(), g.geometry().spec(), g.requests(), g.requestBytes(),
                g.repetitions(), g.requestSizes(), g.temporal(), g.members(), null, g.notation());
    }

    /** The closed form, validated again (a stored value is input like any other). */
    public Geometry closedForm() {
        return Geometry.of(geometry);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredPattern s && kind == s.kind && ops == s.ops && geometry.equals(s.geometry)
                && requests == s.requests && requestBytes == s.requestBytes && repetitions == s.repetitions
                && Arrays.equals(requestSizes, s.requestSizes) && temporal.equals(s.temporal)
                && members.equals(s.members) && java.util.Objects.equals(globalIndex, s.globalIndex)
                && notation.equals(s.notation);
    }

    @Override
    public int hashCode() {
        return geometry.hashCode() * 31 + members.hashCode();
    }
}
