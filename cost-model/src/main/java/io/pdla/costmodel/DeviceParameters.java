package io.pdla.costmodel;

import java.io.Serializable;

/**
 * Storage device part of the model [V, S1 Table 1 and 4.2.1]: {@code a} = start-up time of one I/O
 * operation (seconds), {@code b} = time per byte (seconds/byte).
 */
public record DeviceParameters(double startupSeconds, double secondsPerByte) implements Serializable {

    public DeviceParameters {
        Checks.nonNegative("a (device startup seconds)", startupSeconds);
        Checks.nonNegative("b (device seconds per byte)", secondsPerByte);
    }

    /** Time of one request of {@code bytes} on one device: {@code a + s*b}. */
    public double requestSeconds(double bytes) {
        return startupSeconds + bytes * secondsPerByte;
    }
}
