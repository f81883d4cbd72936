package io.pdla.darshan;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;

/**
 * Writes a Darshan log in format 3.41, little-endian unless asked otherwise, as darshan-util's own writer lays it out: header, job
 * record, name records, then POSIX (v4), MPI-IO (v3), DXT_POSIX and DXT_MPIIO regions, one compressed stream
 * each. DXT is written as DXT_POSIX v1 / DXT_MPIIO v2 (32-byte segments, no thread id): every released
 * darshan-util (3.1.3 to 3.5.0) and PyDarshan read those, while the 40-byte v2/v3 segments of Darshan's main
 * branch are refused by released tools.
 */
public final class DarshanWriter {
    public static final int DXT_POSIX_WRITTEN_VERSION = 1;
    public static final int DXT_MPIIO_WRITTEN_VERSION = 2;

    /** What goes into a log. Records carry Darshan's record ids; {@code names} maps every id to its path. */
    public record Content(DarshanJob job, Map<Long, String> names, List<CounterRecord> posix, List<CounterRecord> mpiio,
                          List<DxtRecord> dxtPosix, List<DxtRecord> dxtMpiio) {}

    private DarshanWriter() {}

    public static byte[] write(Content c, Compression compression) {
        return write(c, compression, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * The runtime writes a log in its host's byte order and darshan-util swaps when the magic number reads swapped,
     * so a big-endian log is what a POWER or s390x machine leaves behind.
     */
    public static byte[] write(Content c, Compression compression, ByteOrder order) {
        List<byte[]> regions = new ArrayList<>();
        regions.add(compress(jobBytes(c.job(), order), compression));
        regions.add(compress(nameBytes(c.names(), order), compression));
        int[] moduleIds = {ModuleId.POSIX.ordinal(), ModuleId.MPIIO.ordinal(), ModuleId.DXT_POSIX.ordinal(), ModuleId.DXT_MPIIO.ordinal()};
        int[] versions = {ModuleId.POSIX.currentVersion(), ModuleId.MPIIO.currentVersion(), DXT_POSIX_WRITTEN_VERSION, DXT_MPIIO_WRITTEN_VERSION};
        List<byte[]> raw = List.of(counterBytes(CounterLayout.POSIX, c.posix(), order), counterBytes(CounterLayout.MPIIO, c.mpiio(), order),
                dxtBytes(c.dxtPosix(), order), dxtBytes(c.dxtMpiio(), order));
        for (byte[] r : raw) regions.add(r.length == 0 ? new byte[0] : compress(r, compression));
        ByteBuffer h = ByteBuffer.allocate(DarshanReader.HEADER_BYTES).order(order);
        h.put("3.41".getBytes(StandardCharsets.US_ASCII));
        h.putLong(8, DarshanReader.MAGIC);
        h.put(16, (byte) compression.ordinal());
        h.putLong(24, 0L);
        long off = DarshanReader.HEADER_BYTES + regions.get(0).length;
        h.putLong(32, regions.get(1).length == 0 ? 0 : off);
        h.putLong(40, regions.get(1).length);
        off += regions.get(1).length;
        for (int i = 0; i < moduleIds.length; i++) {
            byte[] r = regions.get(2 + i);
            if (r.length == 0) continue;
            h.putLong(48 + 16 * moduleIds[i], off);
            h.putLong(48 + 16 * moduleIds[i] + 8, r.length);
            h.putInt(1072 + 4 * moduleIds[i], versions[i]);
            off += r.length;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) off);
        out.writeBytes(h.array());
        for (byte[] r : regions) out.writeBytes(r);
        return out.toByteArray();
    }

    static byte[] jobBytes(DarshanJob j, ByteOrder order) {
        String metadata = j.metadata();
        if (!metadata.isEmpty() && !metadata.endsWith("\n")) metadata += "\n";
        byte[] md = metadata.getBytes(StandardCharsets.UTF_8);
        if (md.length >= DarshanReader.METADATA_LEN) throw new IllegalArgumentException("job metadata longer than 1023 bytes");
        // darshan-util shows the exe only when a mount line follows it, so there is always at least one
        StringBuilder exeMnt = new StringBuilder(j.exe().replace('\n', ' '));
        List<Mount> mounts = j.mounts().isEmpty() ? List.of(new Mount("/", "rootfs")) : j.mounts();
        int max = DarshanReader.EXE_LEN;
        if (exeMnt.length() > max - 64) exeMnt.setLength(max - 64 - "<TRUNCATED>".length());
        for (Mount m : mounts) {
            String line = "\n" + m.type() + "\t" + m.path();
            if (exeMnt.length() + line.length() > max) break;
            exeMnt.append(line);
        }
        byte[] em = exeMnt.toString().getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(56 + DarshanReader.METADATA_LEN + em.length + 1).order(order);
        b.putLong(j.uid()).putLong(j.startSec()).putLong(j.startNsec()).putLong(j.endSec()).putLong(j.endNsec())
                .putLong(j.nprocs()).putLong(j.jobId());
        b.put(md);
        b.position(56 + DarshanReader.METADATA_LEN);
        b.put(em);
        return b.array();
    }

    static byte[] nameBytes(Map<Long, String> names, ByteOrder order) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer id = ByteBuffer.allocate(8).order(order);
        for (Map.Entry<Long, String> e : names.entrySet()) {
            id.clear();
            id.putLong(e.getKey());
            out.writeBytes(id.array());
            out.writeBytes(e.getValue().getBytes(StandardCharsets.UTF_8));
            out.write(0);
        }
        return out.toByteArray();
    }

    static byte[] counterBytes(CounterLayout l, List<CounterRecord> records, ByteOrder order) {
        ByteBuffer b = ByteBuffer.allocate(records.size() * l.currentWords() * 8).order(order);
        for (CounterRecord r : records) {
            if (r.counters().length != l.intNames.length || r.fcounters().length != l.floatNames.length) {
                throw new IllegalArgumentException(l.module.label() + " record needs " + l.intNames.length + " + "
                        + l.floatNames.length + " counters");
            }
            b.putLong(r.id()).putLong(r.rank());
            for (long v : r.counters()) b.putLong(v);
            for (double v : r.fcounters()) b.putDouble(v);
        }
        return b.array();
    }

    static byte[] dxtBytes(List<DxtRecord> records, ByteOrder order) {
        long size = 0;
        for (DxtRecord d : records) size += 104 + 32L * d.segmentCount();
        if (size > Integer.MAX_VALUE - 16) throw new IllegalArgumentException("DXT trace larger than 2 GiB");
        ByteBuffer b = ByteBuffer.allocate((int) size).order(order);
        for (DxtRecord d : records) {
            b.putLong(d.id()).putLong(d.rank()).putLong(0);
            byte[] host = d.hostname().getBytes(StandardCharsets.UTF_8);
            int p = b.position();
            b.put(host, 0, Math.min(63, host.length));
            b.position(p + 64);
            b.putLong(d.writeCount()).putLong(d.readCount());
            for (int i = 0; i < d.segmentCount(); i++) {
                b.putLong(d.offsets()[i]).putLong(d.lengths()[i]).putDouble(d.starts()[i]).putDouble(d.ends()[i]);
            }
        }
        return b.array();
    }

    private static byte[] compress(byte[] data, Compression c) {
        return switch (c) {
            case NONE -> data;
            case ZLIB -> {
                Deflater d = new Deflater();
                d.setInput(data);
                d.finish();
                ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, data.length / 4));
                byte[] buf = new byte[64 * 1024];
                while (!d.finished()) out.write(buf, 0, d.deflate(buf));
                d.end();
                yield out.toByteArray();
            }
            case BZIP2 -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                try (BZip2CompressorOutputStream bz = new BZip2CompressorOutputStream(out)) {
                    bz.write(data);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                yield out.toByteArray();
            }
        };
    }
}
