package io.pdla.darshan;

/** One entry of the job's mount table. */
public record Mount(String path, String type) {}
