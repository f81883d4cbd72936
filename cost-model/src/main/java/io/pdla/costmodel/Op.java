package io.pdla.costmodel;

import java.util.Locale;

/** Direction of an access. HDDs are modelled as symmetric; SSDs have distinct read and write times [V, S1 4.2.1]. */
public enum Op {
    READ, WRITE;

    /** Parses {@code read} / {@code write} (any case). */
    public static Op parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        switch (t) {
            case "read": case "r": return READ;
            case "write": case "w": return WRITE;
            default: throw new IllegalArgumentException("op must be read or write, was " + text);
        }
    }
}
