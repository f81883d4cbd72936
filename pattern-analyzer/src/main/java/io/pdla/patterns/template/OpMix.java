package io.pdla.patterns.template;

import io.pdla.access.IoOp;

/** The operations a pattern performs. */
public enum OpMix {
    READ_ONLY("READ"), WRITE_ONLY("WRITE"), READ_WRITE("READ/WRITE");

    private final String label;

    OpMix(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static OpMix of(IoOp op) {
        return switch (op) {
            case READ -> READ_ONLY;
            case WRITE -> WRITE_ONLY;
            default -> throw new IllegalArgumentException(op + " moves no data");
        };
    }

    public OpMix union(OpMix other) {
        return this == other ? this : READ_WRITE;
    }
}
