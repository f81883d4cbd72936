package io.pdla.simpfs.store;

/** What the namespace keeps per file: the id naming its data objects on the servers, and its layout spec. */
public record FileMeta(long id, String layout) {
}
