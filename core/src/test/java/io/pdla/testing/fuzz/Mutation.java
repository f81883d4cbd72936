package io.pdla.testing.fuzz;

import java.util.function.UnaryOperator;

/**
 * One way of damaging a valid input: {@link #kind()} groups mutations for the statistics a property reports
 * (truncate, flip, int32, ...), {@link #toString()} says exactly what was done (jqwik prints it for a failing
 * case; several in a row are of kind "combined"). Positions are fractions of the input's length, so one mutation applies to any input and shrinks.
 */
public record Mutation(String kind, String description, UnaryOperator<byte[]> op) {
    public byte[] apply(byte[] valid) {
        return op.apply(valid.clone());
    }

    /** This mutation, then {@code then}: several damages in one input. */
    public Mutation andThen(Mutation then) {
        return new Mutation("combined", description + ", then " + then.description, b -> then.op.apply(op.apply(b)));
    }

    @Override
    public String toString() {
        return description;
    }
}
