package io.pdla.costmodel;

import java.io.Serializable;

/**
 * Network part of the model [V, S1 Table 1]: {@code e} = time to establish one connection (seconds),
 * {@code v} = transmission time per byte (seconds/byte; the papers call it a "rate" but use {@code s*v} as a time).
 */
public record NetworkParameters(double connectSeconds, double secondsPerByte) implements Serializable {

    public NetworkParameters {
        Checks.nonNegative("e (network connect seconds)", connectSeconds);
        Checks.nonNegative("v (network seconds per byte)", secondsPerByte);
    }
}
