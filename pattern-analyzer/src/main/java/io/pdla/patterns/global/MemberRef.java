package io.pdla.patterns.global;

/** One local pattern inside a global one: the rank and the pattern's index in that rank's list for the file. */
public record MemberRef(int rank, int index) {
}
