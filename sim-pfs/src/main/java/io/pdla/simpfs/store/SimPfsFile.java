package io.pdla.simpfs.store;

import io.pdla.access.ExtentList;
import io.pdla.simpfs.layout.SimLayouts;
import io.pdla.simpfs.layout.StripeMap;
import io.pdla.storage.ChannelRangeLock;
import io.pdla.storage.RangeLock;
import io.pdla.storage.StorageException;
import io.pdla.storage.StorageException.Reason;
import io.pdla.storage.StorageFile;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An open sim-pfs file: real bytes, cut by the file's layout into per-server data objects. Safe for
 * concurrent positional calls (each piece is one positional channel call). When bound to a rank's
 * {@link StreamRecorder}, every read and write (and vectored call, as one request) is recorded for timing.
 */
public final class SimPfsFile implements StorageFile {
    private final SimPfs fs;
    private final URI uri;
    private final String path;
    private final FileMeta meta;
    private final StripeMap map;
    private final int[] servers;
    private final boolean writable;
    private final FileChannel[] channels;   // indexed like servers; null while the data object does not exist
    private volatile StreamRecorder recorder;
    private FileChannel lockChannel;        // the file's lock side file, opened at the first lock

    SimPfsFile(SimPfs fs, URI uri, String path, FileMeta meta, boolean writable) throws IOException {
        this.fs = fs;
        this.uri = uri;
        this.path = path;
        this.meta = meta;
        this.map = fs.stripeMap(meta);
        this.servers = map.servers();
        this.writable = writable;
        this.channels = new FileChannel[servers.length];
        if (writable) {
            for (int i = 0; i < servers.length; i++) channel(i, true);
        }
    }

    public static SimPfsFile open(SimPfs fs, URI uri, String path, FileMeta meta, boolean writable) throws IOException {
        return new SimPfsFile(fs, uri, path, meta, writable);
    }

    public String path() {
        return path;
    }

    public StripeMap stripeMap() {
        return map;
    }

    /** Records this handle's requests into {@code recorder} from now on (null stops recording). */
    public void recordTo(StreamRecorder recorder) {
        this.recorder = recorder;
    }

    /** Records a barrier or collective point in the bound rank's stream, if any. */
    public void recordCollectivePoint() throws IOException {
        StreamRecorder r = recorder;
        if (r != null) r.barrier();
    }

    private synchronized FileChannel channel(int idx, boolean create) throws IOException {
        if (channels[idx] != null) return channels[idx];
        Path p = fs.dataObject(meta.id(), servers[idx]);
        if (create) {
            Files.createDirectories(p.getParent());
            channels[idx] = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } else if (Files.exists(p)) {
            channels[idx] = FileChannel.open(p, StandardOpenOption.READ);
        }
        return channels[idx];
    }

    private int indexOf(int server) {
        for (int i = 0; i < servers.length; i++) if (servers[i] == server) return i;
        throw new IllegalStateException("server " + server + " is not in layout " + map.layout());
    }

    @Override
    public URI uri() {
        return uri;
    }

    @Override
    public int read(long offset, ByteBuffer dst) throws IOException {
        int n = readRaw(offset, dst);
        StreamRecorder r = recorder;
        if (r != null && n > 0) r.data(false, path, ExtentList.of(offset, n));
        return n;
    }

    @Override
    public void write(long offset, ByteBuffer src) throws IOException {
        long n = src.remaining();
        writeRaw(offset, src);
        StreamRecorder r = recorder;
        if (r != null) r.data(true, path, ExtentList.of(offset, n));
    }

    @Override
    public long readv(ExtentList extents, ByteBuffer dst) throws IOException {
        long total = 0;
        int limit = dst.limit();
        ExtentList.Builder done = ExtentList.builder(extents.size());
        try {
            for (int i = 0; i < extents.size(); i++) {
                long len = extents.length(i);
                dst.limit(Math.toIntExact(dst.position() + len));
                int got = readRaw(extents.offset(i), dst);
                done.add(extents.offset(i), got);
                total += got;
                if (got < len) break;
            }
        } finally {
            dst.limit(limit);
        }
        StreamRecorder r = recorder;
        if (r != null) r.data(false, path, done.build());
        return total;
    }

    @Override
    public long writev(ExtentList extents, ByteBuffer src) throws IOException {
        int limit = src.limit();
        try {
            for (int i = 0; i < extents.size(); i++) {
                src.limit(Math.toIntExact(src.position() + extents.length(i)));
                writeRaw(extents.offset(i), src);
            }
        } finally {
            src.limit(limit);
        }
        StreamRecorder r = recorder;
        if (r != null) r.data(true, path, extents);
        return extents.totalBytes();
    }

    private int readRaw(long offset, ByteBuffer dst) throws IOException {
        if (offset < 0) throw new StorageException(Reason.BAD_ARGUMENT, "simpfs: negative offset " + offset + " reading " + path);
        long size = size();
        if (offset >= size || !dst.hasRemaining()) return 0;
        int len = (int) Math.min(dst.remaining(), size - offset);
        int base = dst.position();
        IOException[] failure = new IOException[1];
        map.map(offset, len, (server, local, length, fileOffset) -> {
            if (failure[0] != null) return;
            try {
                ByteBuffer slice = dst.duplicate();
                int at = base + (int) (fileOffset - offset);
                slice.limit(at + (int) length).position(at);
                FileChannel ch = channel(indexOf(server), false);
                long pos = local;
                while (slice.hasRemaining()) {
                    int got = ch == null ? -1 : ch.read(slice, pos);
                    if (got < 0) {
                        while (slice.hasRemaining()) slice.put((byte) 0);   // a hole below the file's size
                        break;
                    }
                    pos += got;
                }
            } catch (IOException e) {
                failure[0] = e;
            }
        });
        if (failure[0] != null) throw new StorageException(Reason.IO, "simpfs: reading " + path + ": " + failure[0].getMessage(), failure[0]);
        dst.position(base + len);
        return len;
    }

    private void writeRaw(long offset, ByteBuffer src) throws IOException {
        if (!writable) throw new StorageException(Reason.READ_ONLY, "simpfs: " + path + " is open read-only");
        if (offset < 0) throw new StorageException(Reason.BAD_ARGUMENT, "simpfs: negative offset " + offset + " writing " + path);
        int len = src.remaining();
        int base = src.position();
        IOException[] failure = new IOException[1];
        map.map(offset, len, (server, local, length, fileOffset) -> {
            if (failure[0] != null) return;
            try {
                ByteBuffer slice = src.duplicate();
                int at = base + (int) (fileOffset - offset);
                slice.limit(at + (int) length).position(at);
                FileChannel ch = channel(indexOf(server), true);
                long pos = local;
                while (slice.hasRemaining()) pos += ch.write(slice, pos);
            } catch (IOException e) {
                failure[0] = e;
            }
        });
        if (failure[0] != null) throw new StorageException(Reason.IO, "simpfs: writing " + path + ": " + failure[0].getMessage(), failure[0]);
        src.position(base + len);
    }

    @Override
    public long size() throws IOException {
        long size = 0;
        for (int i = 0; i < servers.length; i++) {
            FileChannel ch = channel(i, false);
            if (ch != null) size = Math.max(size, map.fileEnd(servers[i], ch.size()));
        }
        return size;
    }

    @Override
    public void setSize(long size) throws IOException {
        if (!writable) throw new StorageException(Reason.READ_ONLY, "simpfs: " + path + " is open read-only");
        if (size < 0) throw new StorageException(Reason.BAD_ARGUMENT, "simpfs: negative size " + size + " for " + path);
        for (int i = 0; i < servers.length; i++) {
            FileChannel ch = channel(i, true);
            long keep = map.localSize(servers[i], size);
            if (ch.size() > keep) ch.truncate(keep);
        }
        if (size > 0 && size() < size) {
            // Growing: the object holding the last byte is extended; every other gap reads as a hole of zeros.
            long[] last = new long[2];
            map.map(size - 1, 1, (server, local, length, fileOffset) -> {
                last[0] = server;
                last[1] = local;
            });
            channel(indexOf((int) last[0]), true).write(ByteBuffer.wrap(new byte[1]), last[1]);
        }
    }

    /** MPI_File_preallocate: zeros written past the end on the servers that hold them, never a sparse hole. */
    @Override
    public void preallocate(long size) throws IOException {
        long at = size();
        if (at >= size) return;
        ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(1 << 20, size - at));
        while (at < size) {
            int n = (int) Math.min(zeros.capacity(), size - at);
            zeros.clear().limit(n);
            write(at, zeros);
            at += n;
        }
    }

    @Override
    public void sync() throws IOException {
        // every data object of the file, also those this handle never touched: as fsync on any descriptor of a POSIX
        // file, a sync makes what other handles wrote durable too (redirect relies on it after the delegates' write-back)
        for (int i = 0; i < servers.length; i++) {
            FileChannel ch = channel(i, false);
            if (ch != null) ch.force(true);
        }
    }

    /** The file's layout, spread over the servers of its class. */
    @Override
    public io.pdla.storage.Layout layout() {
        return SimLayouts.spread(map.layout(), fs.config().hservers(), fs.config().sservers());
    }

    /**
     * Byte-range locks live on a side file of the root ({@code locks/ID}, {@link SimPfs#lockFile}), one per
     * file id, locked with {@link FileChannel#lock} on the same range: every rank of every JVM sharing the
     * root sees them, and no static state is needed (ranks of one JVM have separate class loaders).
     */
    @Override
    public RangeLock lock(long offset, long length) throws IOException {
        return ChannelRangeLock.acquire(lockChannel(), offset, length, "simpfs: " + path);
    }

    private synchronized FileChannel lockChannel() throws IOException {
        if (lockChannel == null) {
            Path p = fs.lockFile(meta.id());
            Files.createDirectories(p.getParent());
            lockChannel = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        }
        return lockChannel;
    }

    @Override
    public synchronized void close() throws IOException {
        IOException first = null;
        if (lockChannel != null) {
            try {
                lockChannel.close();
            } catch (IOException e) {
                first = e;
            }
            lockChannel = null;
        }
        for (int i = 0; i < channels.length; i++) {
            if (channels[i] == null) continue;
            try {
                channels[i].close();
            } catch (IOException e) {
                if (first == null) first = e;
            }
            channels[i] = null;
        }
        if (first != null) throw first;
    }
}
