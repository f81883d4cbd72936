package io.pdla.bench.ior;

import io.pdla.storage.StorageDrivers;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The baseline: a bare {@link FileChannel} doing positional reads and writes of the same bytes at the
 * same offsets, in the same ranks (threads or processes) as the shim run. No pdla code is on its path,
 * so the shim/baseline ratio is the cost of the shim (views, interceptor chain, MPI-IO semantics).
 */
public final class PosixBaselineBackend implements IorBackend {
    @Override
    public String name() {
        return "posix-baseline";
    }

    @Override
    public String description() {
        return "bare FileChannel positional read/write";
    }

    /** A plain path, or a file: URI as the shim accepts; other schemes have no FileChannel. */
    static Path localPath(String file) throws IOException {
        URI uri = StorageDrivers.toUri(file);
        java.util.Optional<Path> local;
        try {
            local = StorageDrivers.installed().forUri(uri).localPath(uri);
        } catch (IllegalArgumentException noDriver) {
            local = java.util.Optional.empty();
        }
        if (local.isEmpty()) {
            throw new IOException(file + ": the FileChannel baseline needs a local path or a file: URI (use --no-baseline for " + uri.getScheme() + ":)");
        }
        return local.get();
    }

    @Override
    public Handle open(String file, boolean forWrite, boolean shared, int dataRank) throws IOException {
        Path p = localPath(file);
        // CREATE without TRUNCATE_EXISTING: every rank may open the shared file concurrently, as with O_CREAT
        FileChannel ch = forWrite
                ? FileChannel.open(p, StandardOpenOption.WRITE, StandardOpenOption.CREATE)
                : FileChannel.open(p, StandardOpenOption.READ);
        return new ChannelHandle(ch);
    }

    @Override
    public void delete(String file) throws IOException {
        Files.deleteIfExists(localPath(file));
    }

    private record ChannelHandle(FileChannel ch) implements Handle {
        @Override
        public long transfer(boolean write, long offset, byte[] buf, int length) throws IOException {
            ByteBuffer bb = ByteBuffer.wrap(buf, 0, length);
            long moved = 0;
            while (bb.hasRemaining()) {
                int n = write ? ch.write(bb, offset + moved) : ch.read(bb, offset + moved);
                if (n < 0) break;
                moved += n;
            }
            return moved;
        }

        @Override
        public void fsync() throws IOException {
            // fsync(2), as IOR's POSIX backend and the shim's MPI_File_sync (PosixFile.sync) do
            ch.force(true);
        }

        @Override
        public void close() throws IOException {
            ch.close();
        }
    }
}
