package io.pdla.access;

/** What an access does to the file. Metadata operations carry no extents. */
public enum IoOp {
    OPEN, CLOSE, READ, WRITE, SEEK, SET_VIEW, SYNC, SET_SIZE;

    public boolean movesData() {
        return this == READ || this == WRITE;
    }
}
