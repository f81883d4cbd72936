package io.pdla.redirect;

import io.pdla.catalog.ReplicaEntry;
import io.pdla.pattern.KeyedPattern;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageDriver;
import io.pdla.storage.StorageDrivers;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * A replica this rank uses: its catalog entry, open file and read-ahead window (null when disabled), and, once
 * writes go into it, a writable handle. {@code authoritative} means the replica is DIRTY: it holds bytes the
 * original lacks, so it may never be silently replaced by the original.
 */
final class OpenReplica implements AutoCloseable {
    final ReplicaEntry entry;
    final KeyedPattern pattern;
    final StorageFile file;
    final ReadAheadWindow window;
    private final Map<String, String> hints;
    volatile boolean authoritative;
    private StorageFile writer;

    OpenReplica(ReplicaEntry entry, StorageFile file, int readAheadBytes, Map<String, String> hints, boolean authoritative) {
        this.entry = entry;
        this.pattern = entry.pattern();
        this.file = file;
        // a replica of several ranks (rank after rank): each rank's read-ahead stays within the region it reads
        long region = pattern.geometry().groups() > 1 ? pattern.geometry().groupBase().totalBytes() : pattern.totalBytes();
        this.window = readAheadBytes > 0 ? new ReadAheadWindow(file, pattern.totalBytes(), region, readAheadBytes) : null;
        this.hints = hints;
        this.authoritative = authoritative;
    }

    void read(long position, ByteBuffer dst, RedirectStats stats) throws IOException {
        if (window != null) window.read(position, dst, stats);
        else ReadAheadWindow.readDirect(file, position, dst);
    }

    /** Writes {@code src} at replica position {@code position}; what the read-ahead held is forgotten. */
    synchronized void write(long position, ByteBuffer src) throws IOException {
        if (writer == null) {
            StorageDriver d = StorageDrivers.installed().forUri(entry.replica());
            writer = d.open(entry.replica(), OpenOptions.readWrite().withHints(hints));
        }
        writer.write(position, src);
        forgetReadAhead();
    }

    void forgetReadAhead() {
        if (window != null) window.forget();
    }

    synchronized void sync() throws IOException {
        if (writer != null) writer.sync();
    }

    @Override
    public synchronized void close() throws IOException {
        if (window != null) window.quiesce();
        try {
            if (writer != null) {
                writer.sync();
                writer.close();
            }
        } finally {
            writer = null;
            file.close();
        }
    }
}
