package io.pdla.tracer.format;

import io.pdla.darshan.Counter;
import io.pdla.tracer.counters.TracedRecord;
import io.pdla.tracer.counters.Module;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * The per-rank summary file {@code rank-<r>.pdlc}: a small binary file rewritten atomically (temporary
 * file, then rename) each time the rank closes its last open file and at shutdown. Byte layout in
 * {@code tracer/README.md}; big-endian; a CRC-32C of all preceding bytes ends the file.
 */
public final class CounterFile {
    public static final byte[] MAGIC = "PDLACNT\0".getBytes(StandardCharsets.US_ASCII);
    public static final int VERSION = 1;

    private CounterFile() {
    }

    public static byte[] encode(RankSummary s) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
            DataOutputStream out = new DataOutputStream(bytes);
            out.write(MAGIC);
            out.writeShort(VERSION);
            out.writeShort(0);
            out.writeInt(s.rank());
            out.writeInt(s.nprocs());
            out.writeLong(s.originEpochNanos());
            out.writeLong(s.originNanoTime());
            out.writeLong(s.clockDomain());
            out.writeLong(s.startEpochNanos());
            out.writeLong(s.endEpochNanos());
            out.writeLong(s.requestsTraced());
            out.writeLong(s.droppedRequests());
            out.writeByte(s.tracingFailed() ? 1 : 0);
            string(out, s.command());
            out.writeInt(s.hints().size());
            for (Map.Entry<String, String> h : new TreeMap<>(s.hints()).entrySet()) {
                string(out, h.getKey());
                string(out, h.getValue());
            }
            out.writeInt(s.files().size());
            for (Map.Entry<Integer, String> f : new TreeMap<>(s.files()).entrySet()) {
                out.writeInt(f.getKey());
                string(out, f.getValue());
            }
            out.writeInt(s.records().size());
            for (TracedRecord r : s.records()) {
                out.writeByte(r.module().id());
                out.writeInt(r.rank());
                out.writeLong(r.recordId());
                string(out, r.fileName());
                string(out, r.mountPoint());
                string(out, r.fsType());
                out.writeShort(r.module().counters().size());
                for (Counter c : r.module().counters()) out.writeLong(r.get(c));
                out.writeShort(r.module().fcounters().size());
                for (Counter c : r.module().fcounters()) out.writeDouble(r.getF(c));
            }
            out.flush();
            CRC32C crc = new CRC32C();
            crc.update(bytes.toByteArray());
            out.writeInt((int) crc.getValue());
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException("in-memory stream failed", e);
        }
    }

    private static void string(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    /** Writes atomically: readers never see a half-written summary. */
    public static void write(Path dir, RankSummary s) throws IOException {
        Path target = dir.resolve(RankSummary.fileName(s.rank()));
        // per thread: the writer thread and the shutdown hook of the same rank may overlap
        Path tmp = dir.resolve(RankSummary.fileName(s.rank()) + ".tmp-" + Thread.currentThread().getId());
        Files.write(tmp, encode(s));
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    public static RankSummary read(Path file) throws IOException {
        byte[] all = Files.readAllBytes(file);
        ByteBuffer b = ByteBuffer.wrap(all);
        String what = "the header";
        try {
            byte[] magic = new byte[MAGIC.length];
            b.get(magic);
            if (!Arrays.equals(magic, MAGIC)) throw new TraceFormatException(file, 0, "not a pdla counter file (bad magic)");
            int version = b.getShort() & 0xFFFF;
            if (version != VERSION) {
                throw new TraceFormatException(file, 8, "unsupported counter file version " + version + " (this reader knows " + VERSION + ")");
            }
            b.getShort();
            int rank = b.getInt();
            int nprocs = b.getInt();
            if (nprocs <= 0 || rank < 0 || rank >= nprocs) throw new TraceFormatException(file, 12, "corrupt header: rank " + rank + " of " + nprocs);
            long originEpoch = b.getLong(), originNano = b.getLong(), domain = b.getLong();
            long start = b.getLong(), end = b.getLong(), requests = b.getLong(), dropped = b.getLong();
            boolean failed = b.get() != 0;
            String command = string(b, file);
            what = "the hints";
            int nh = count(b, file, 1 << 16);
            Map<String, String> hints = new LinkedHashMap<>();
            for (int i = 0; i < nh; i++) hints.put(string(b, file), string(b, file));
            what = "the file table";
            int nf = count(b, file, 1 << 24);
            Map<Integer, String> files = new LinkedHashMap<>();
            for (int i = 0; i < nf; i++) files.put(b.getInt(), string(b, file));
            int nr = count(b, file, 1 << 24);
            List<TracedRecord> records = new ArrayList<>(Math.min(nr, 1024));
            for (int i = 0; i < nr; i++) {
                what = "counter record " + i;
                int at = b.position();
                Module m = Module.byId(b.get());
                if (m == null) throw new TraceFormatException(file, at, "corrupt: unknown module id " + all[at] + " in " + what);
                int recRank = b.getInt();
                long id = b.getLong();
                String name = string(b, file), mount = string(b, file), fs = string(b, file);
                at = b.position();
                int nc = b.getShort();
                if (nc != m.counters().size()) throw new TraceFormatException(file, at, "corrupt: " + m + " record with " + nc + " counters");
                long[] c = new long[nc];
                for (int k = 0; k < nc; k++) c[k] = b.getLong();
                at = b.position();
                int nfc = b.getShort();
                if (nfc != m.fcounters().size()) throw new TraceFormatException(file, at, "corrupt: " + m + " record with " + nfc + " float counters");
                double[] f = new double[nfc];
                for (int k = 0; k < nfc; k++) f[k] = b.getDouble();
                records.add(new TracedRecord(m, recRank, id, name, mount, fs, c, f));
            }
            what = "the CRC";
            int crcAt = b.position();
            int stored = b.getInt();
            CRC32C crc = new CRC32C();
            crc.update(all, 0, crcAt);
            if (stored != (int) crc.getValue()) throw new TraceFormatException(file, crcAt, "corrupt: CRC mismatch over bytes 0.." + crcAt);
            if (b.hasRemaining()) throw new TraceFormatException(file, b.position(), "corrupt: " + b.remaining() + " bytes after the CRC");
            return new RankSummary(rank, nprocs, originEpoch, originNano, domain, start, end, requests, dropped, failed,
                    command, hints, files, records);
        } catch (BufferUnderflowException e) {
            throw new TraceFormatException(file, all.length, "truncated: file ends inside " + what);
        }
    }

    private static int count(ByteBuffer b, Path file, int max) throws TraceFormatException {
        int at = b.position();
        int n = b.getInt();
        if (n < 0 || n > max) throw new TraceFormatException(file, at, "corrupt: count " + n);
        return n;
    }

    private static String string(ByteBuffer b, Path file) throws TraceFormatException {
        int at = b.position();
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            if (n >= 0 && n <= 1 << 20) throw new BufferUnderflowException();
            throw new TraceFormatException(file, at, "corrupt: string length " + n);
        }
        byte[] s = new byte[n];
        b.get(s);
        return new String(s, StandardCharsets.UTF_8);
    }
}
