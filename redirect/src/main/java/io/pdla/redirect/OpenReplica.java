package io.pdla.redirect;

import io.pdla.replicator.catalog.ReplicaEntry;
import io.pdla.replicator.pattern.ReplicablePattern;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.nio.ByteBuffer;

/** A replica this rank reads from: its catalog entry, open file and read-ahead window (null when disabled). */
final class OpenReplica implements AutoCloseable {
    final ReplicaEntry entry;
    final ReplicablePattern pattern;
    final StorageFile file;
    final ReadAheadWindow window;

    OpenReplica(ReplicaEntry entry, StorageFile file, int readAheadBytes) {
        this.entry = entry;
        this.pattern = entry.pattern();
        this.file = file;
        this.window = readAheadBytes > 0 ? new ReadAheadWindow(file, pattern.totalBytes(), readAheadBytes) : null;
    }

    void read(long position, ByteBuffer dst, RedirectStats stats) throws IOException {
        if (window != null) window.read(position, dst, stats);
        else ReadAheadWindow.readDirect(file, position, dst);
    }

    @Override
    public void close() throws IOException {
        if (window != null) window.quiesce();
        file.close();
    }
}
