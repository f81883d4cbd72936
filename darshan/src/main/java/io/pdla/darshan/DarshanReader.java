package io.pdla.darshan;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a Darshan log (formats 3.00, 3.10, 3.20, 3.21, 3.41; either byte order; zlib, bzip2 or none) the way
 * darshan-util does. Header and job errors always throw; a module or name region that stops short is kept as far
 * as it was read, with its error in {@link ModuleData#error()}, so callers decide whether to show incomplete data.
 * One region is decompressed at a time and never beyond {@code maxRegionBytes}.
 */
public final class DarshanReader {
    public static final long MAGIC = 6567223L;
    public static final int HEADER_BYTES = 1328;
    static final int OLD_HEADER_BYTES = 360;
    static final int METADATA_LEN = 1024;
    static final int EXE_LEN = 4096 - 1080 - 1;
    /** More than any format's job record inflates to (4 KiB and the old formats' 16 more bytes). */
    static final long JOB_REGION_BYTES = 64 << 10;

    private final long maxRegionBytes;

    public DarshanReader() { this(1L << 30); }

    public DarshanReader(long maxRegionBytes) { this.maxRegionBytes = Math.min(maxRegionBytes, Integer.MAX_VALUE - 16); }

    public DarshanLog read(Path path) throws IOException {
        long size = Files.size(path);
        if (size > Integer.MAX_VALUE) throw new DarshanFormatException("file", 0, "log larger than 2 GiB");
        return read(Files.readAllBytes(path));
    }

    public DarshanLog read(byte[] file) throws DarshanFormatException {
        DarshanHeader h = header(file);
        RegionDecoder dec = new RegionDecoder(h.compression(), maxRegionBytes);
        DarshanJob job = job(file, h);
        Map<Long, String> names = new HashMap<>();
        DarshanFormatException namesError = names(file, h, dec, names);
        List<ModuleData> modules = new ArrayList<>();
        for (int i = 0; i < ModuleId.MAX_MODS; i++) {
            if (!h.modules()[i].present() && !h.partial(i)) continue;
            modules.add(module(file, h, dec, i));
        }
        return new DarshanLog(h, job, names, List.copyOf(modules), namesError);
    }

    static DarshanHeader header(byte[] file) throws DarshanFormatException {
        if (file.length < 8) throw new DarshanFormatException("header", file.length, "file too short for a Darshan header");
        int nul = 0;
        while (nul < 8 && file[nul] != 0) nul++;
        String version = new String(file, 0, nul, StandardCharsets.US_ASCII);
        int dot = version.indexOf('.');
        int major, minor;
        try {
            major = Integer.parseInt(version.substring(0, dot));
            minor = Integer.parseInt(version.substring(dot + 1));
        } catch (RuntimeException e) {
            throw new DarshanFormatException("header", 0, "not a Darshan log: version string '" + printable(version) + "'");
        }
        boolean known = major == 3 && (minor == 0 || minor == 10 || minor == 20 || minor == 21 || minor == 41);
        boolean newer = major == 3 && minor > 41 || major > 3;
        if (!known && !newer) {
            throw new DarshanFormatException("header", 0, "unsupported Darshan log format version " + version
                    + " (this reader reads 3.00 to 3.41 and newer 3.4x)");
        }
        boolean modern = major > 3 || minor >= 41;
        int hdrLen = modern ? HEADER_BYTES : OLD_HEADER_BYTES;
        if (file.length < hdrLen) {
            throw new DarshanFormatException("header", file.length, "file truncated inside the " + hdrLen + "-byte header");
        }
        ByteBuffer b = ByteBuffer.wrap(file, 0, hdrLen).order(ByteOrder.LITTLE_ENDIAN);
        ByteOrder order = ByteOrder.LITTLE_ENDIAN;
        if (b.getLong(8) != MAGIC) {
            b.order(ByteOrder.BIG_ENDIAN);
            if (b.getLong(8) != MAGIC) throw new DarshanFormatException("header", 8, "bad magic number");
            order = ByteOrder.BIG_ENDIAN;
        }
        Compression comp = Compression.of(file[16] & 0xff, 16);
        int slots = modern ? ModuleId.MAX_MODS : 16;
        long partial;
        int namesAt, mapAt, verAt;
        if (modern) {
            partial = b.getLong(24);
            namesAt = 32;
            mapAt = 48;
            verAt = 1072;
        } else {
            partial = b.getInt(20) & 0xffffffffL;
            namesAt = 24;
            mapAt = 40;
            verAt = 296;
        }
        Region names = new Region(b.getLong(namesAt), b.getLong(namesAt + 8));
        Region[] mods = new Region[ModuleId.MAX_MODS];
        int[] vers = new int[ModuleId.MAX_MODS];
        java.util.Arrays.fill(mods, new Region(0, 0));
        for (int i = 0; i < slots; i++) {
            mods[i] = new Region(b.getLong(mapAt + 16 * i), b.getLong(mapAt + 16 * i + 8));
            vers[i] = b.getInt(verAt + 4 * i);
        }
        if (major == 3 && minor < 20) partial = insertSlot(mods, vers, partial, ModuleId.H5D.ordinal());
        if (major == 3 && minor < 41) partial = insertSlot(mods, vers, partial, ModuleId.PNETCDF_VAR.ordinal());
        for (int i = 0; i < mods.length; i++) {
            Region r = mods[i];
            if (r.length() < 0 || r.offset() < 0) {
                throw new DarshanFormatException("header", mapAt, "module slot " + i + " has a negative offset or length");
            }
        }
        if (names.length() < 0 || names.offset() < 0) {
            throw new DarshanFormatException("header", namesAt, "name region has a negative offset or length");
        }
        long jobLen;
        if (names.offset() == 0) {
            jobLen = 0;
            for (Region r : mods) if (r.offset() != 0) { jobLen = r.offset() - hdrLen; break; }
            if (jobLen == 0) jobLen = file.length - hdrLen;
        } else {
            jobLen = names.offset() - hdrLen;
        }
        if (jobLen <= 0) throw new DarshanFormatException("header", namesAt, "job region has no bytes (length " + jobLen + ")");
        return new DarshanHeader(version, major, minor, order, comp, partial, new Region(hdrLen, jobLen), names,
                mods, vers, hdrLen);
    }

    private static long insertSlot(Region[] mods, int[] vers, long partial, int at) {
        System.arraycopy(mods, at, mods, at + 1, mods.length - at - 1);
        System.arraycopy(vers, at, vers, at + 1, vers.length - at - 1);
        mods[at] = new Region(0, 0);
        vers[at] = 0;
        long shifted = (partial << 1) >>> (at + 1) << (at + 1);
        return (partial & ((1L << at) - 1)) | shifted;
    }

    /**
     * The job region: one job record (at most {@link #JOB_REGION_BYTES} inflated), read whole or refused. A damaged
     * compressed region can inflate to megabytes of garbage before its checksum fails (a bzip2 block is checked at its
     * end), so it is inflated no further than a job record can be, and its error is thrown even when enough bytes came
     * before it: they are not known to be the job's.
     */
    private DarshanJob job(byte[] file, DarshanHeader h) throws DarshanFormatException {
        RegionDecoder.Decoded d = new RegionDecoder(h.compression(), Math.min(maxRegionBytes, JOB_REGION_BYTES)).decode(file, h.job(), "job");
        if (d.error() != null) throw d.error();
        boolean modern = h.atLeast(3, 41);
        int fixed = modern ? 56 : 40;
        if (d.length() <= fixed + METADATA_LEN) {
            throw new DarshanFormatException("job", h.job().offset(), "job record is " + d.length()
                    + " bytes, shorter than the " + (fixed + METADATA_LEN) + "-byte job struct");
        }
        ByteBuffer b = ByteBuffer.wrap(d.data(), 0, d.length()).order(h.order());
        long uid = b.getLong(0);
        long ss, sn, es, en, np, jid;
        if (modern) {
            ss = b.getLong(8); sn = b.getLong(16); es = b.getLong(24); en = b.getLong(32); np = b.getLong(40); jid = b.getLong(48);
        } else {
            ss = b.getLong(8); sn = 0; es = b.getLong(16); en = 0; np = b.getLong(24); jid = b.getLong(32);
        }
        String metadata = cString(d.data(), fixed, METADATA_LEN);
        int trailing = fixed + METADATA_LEN;
        int maxTrailing = Math.min(d.length() - trailing, modern ? EXE_LEN + 1 : EXE_LEN + 1 + 16);
        String exeMnt = cString(d.data(), trailing, maxTrailing);
        int nl = exeMnt.indexOf('\n');
        // darshan-util copies the exe only up to the first newline: a log without a mount table shows an empty exe
        String exe = nl >= 0 ? exeMnt.substring(0, nl) : "";
        List<Mount> mounts = new ArrayList<>();
        if (nl >= 0) {
            for (String line : exeMnt.substring(nl + 1).split("\n", -1)) {
                String[] parts = line.trim().split("\\s+");
                if (parts.length < 2) {
                    throw new DarshanFormatException("job", h.job().offset(), "poorly formatted mount table entry '"
                            + printable(line) + "'");
                }
                mounts.add(new Mount(parts[1], parts[0]));
            }
        }
        mounts.sort(Comparator.comparingInt((Mount m) -> m.path().length()).reversed());
        return new DarshanJob(uid, ss, sn, es, en, np, jid, metadata, exe, List.copyOf(mounts));
    }

    private static DarshanFormatException names(byte[] file, DarshanHeader h, RegionDecoder dec, Map<Long, String> out) {
        if (!h.names().present()) return null;
        RegionDecoder.Decoded d = dec.decode(file, h.names(), "name records");
        ByteBuffer b = ByteBuffer.wrap(d.data(), 0, d.length()).order(h.order());
        byte[] a = d.data();
        int p = 0, n = d.length();
        boolean v300 = h.major() == 3 && h.minor() == 0;
        while (n - p >= 9) {
            long id = b.getLong(p);
            String name;
            int next;
            if (v300) {
                if (n - p < 12) break;
                long len = b.getInt(p + 8) & 0xffffffffL;
                if (len > n - p - 12) break;
                name = new String(a, p + 12, (int) len, StandardCharsets.UTF_8);
                next = p + 12 + (int) len;
            } else {
                int z = p + 8;
                while (z < n && a[z] != 0) z++;
                if (z == n) break;
                name = new String(a, p + 8, z - p - 8, StandardCharsets.UTF_8);
                next = z + 1;
            }
            String old = out.get(id);
            if (old == null || (old.isEmpty() && !name.isEmpty())) out.put(id, name);
            p = next;
        }
        if (d.error() != null) return d.error();
        if (p != n) {
            return new DarshanFormatException("name records", h.names().offset(), "name region ends inside a record ("
                    + (n - p) + " stray bytes at uncompressed offset " + p + ")");
        }
        return null;
    }

    private ModuleData module(byte[] file, DarshanHeader h, RegionDecoder dec, int idx) {
        ModuleId id = ModuleId.byIndex(idx);
        Region r = h.modules()[idx];
        int ver = h.moduleVersions()[idx];
        boolean partial = h.partial(idx);
        String label = id == null ? "module id " + idx : id.label() + " module";
        if (!r.present()) return new ModuleData(id, idx, ver, 0, 0, partial, List.of(), null, null);
        if (id == null) {
            return new ModuleData(null, idx, ver, r.length(), 0, partial, List.of(), null,
                    "module id " + idx + " is unknown to this reader; skipped");
        }
        if (id.currentVersion() == 0) {
            return new ModuleData(id, idx, ver, r.length(), 0, partial, List.of(), null,
                    "no log utility handlers defined for module " + id.label() + ", SKIPPING.");
        }
        if (ver == 0 || ver > id.currentVersion()) {
            return new ModuleData(id, idx, ver, r.length(), 0, partial, List.of(), null,
                    "invalid " + id.label() + " module version number (got " + ver + "); skipped");
        }
        RegionDecoder.Decoded d = dec.decode(file, r, label);
        RecordCursor c = new RecordCursor(d.data(), d.length(), h.order(), label, r.offset());
        List<Object> records = new ArrayList<>();
        DarshanFormatException err = null;
        String note = null;
        try {
            switch (id) {
                case LUSTRE -> { while (c.remaining() > 0) records.add(ModuleDecoders.lustre(c, ver)); }
                case HEATMAP -> ModuleDecoders.heatmaps(c, records);
                case DXT_POSIX, DXT_MPIIO -> {
                    int segWords = (id == ModuleId.DXT_POSIX ? ver >= 2 : ver >= 3) ? 5 : 4;
                    while (c.remaining() > 0) records.add(ModuleDecoders.dxt(c, segWords, !(id == ModuleId.DXT_MPIIO && ver == 1)));
                }
                default -> {
                    CounterLayout layout = CounterLayout.of(id);
                    int words = layout == null ? -1 : layout.wordsAt(ver);
                    if (words < 0) {
                        note = "module " + id.label() + " version " + ver + " is not up-converted by this reader; skipped";
                    } else {
                        long[] w = new long[Math.max(128, words)];   // upConvert works in 128 words; some modules have more
                        while (c.remaining() > 0) {
                            java.util.Arrays.fill(w, 0);
                            c.words(w, words);
                            if (layout.upConvert(w, ver)) records.add(layout.toRecord(w));
                        }
                    }
                }
            }
        } catch (DarshanFormatException e) {
            err = e;
        }
        if (d.error() != null) err = d.error();
        return new ModuleData(id, idx, ver, r.length(), d.length(), partial, records, err, note);
    }

    static String cString(byte[] a, int from, int max) {
        int end = from;
        int lim = Math.min(a.length, from + Math.max(0, max));
        while (end < lim && a[end] != 0) end++;
        return new String(a, from, end - from, StandardCharsets.UTF_8);
    }

    private static String printable(String s) {
        return s.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
