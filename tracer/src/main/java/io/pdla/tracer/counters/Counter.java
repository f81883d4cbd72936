package io.pdla.tracer.counters;

/** A counter of a module: an enum constant whose name is Darshan's and which knows its merge rule. */
public interface Counter {
    String name();

    int ordinal();

    Merge merge();
}
