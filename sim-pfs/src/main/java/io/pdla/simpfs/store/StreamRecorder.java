package io.pdla.simpfs.store;

import io.pdla.access.ExtentList;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends one rank's requests, in program order, to {@code streams/SESSION/rank-R.stream}. Only that rank
 * writes that file, so ranks running as threads of one JVM never share a writer, and the order inside a
 * rank's stream does not depend on thread scheduling; the timing engine later replays all streams
 * deterministically. Line format (tab-separated): {@code W path off:len,off:len...}, {@code R ...}, and
 * {@code B} for a barrier or collective point.
 */
public final class StreamRecorder implements Closeable {
    private final FileChannel out;

    public StreamRecorder(Path streamFile) throws IOException {
        Files.createDirectories(streamFile.getParent());
        out = FileChannel.open(streamFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }

    public static Path streamFile(Path root, String session, int rank) {
        if (session.isEmpty() || session.contains("/") || session.contains("..")) {
            throw new IllegalArgumentException("simpfs_session '" + session + "' must be a plain name");
        }
        return root.resolve("streams").resolve(session).resolve("rank-" + rank + ".stream");
    }

    public synchronized void data(boolean write, String path, ExtentList extents) throws IOException {
        if (extents.totalBytes() == 0) return;
        StringBuilder b = new StringBuilder(32 + 24 * extents.size());
        b.append(write ? 'W' : 'R').append('\t').append(path).append('\t');
        for (int i = 0; i < extents.size(); i++) {
            if (i > 0) b.append(',');
            b.append(extents.offset(i)).append(':').append(extents.length(i));
        }
        append(b.append('\n').toString());
    }

    public synchronized void barrier() throws IOException {
        append("B\n");
    }

    private void append(String line) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
        while (buf.hasRemaining()) out.write(buf);
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
