package io.pdla.darshan;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;

/**
 * Decompresses one region. Under MPI every rank deflates its share of a region on its own, so a region can hold
 * several zlib streams back to back: the inflater is reset at each stream's end until the region is used up.
 * Output grows as data actually inflates, never from a length read in the log, and stops at {@code maxBytes}, or
 * at {@link #MAX_RATIO} times the region's compressed bytes (at least {@link #MIN_CAP}): zlib cannot inflate further
 * (its limit is 1032 to 1), and a damaged bzip2 block inflates to megabytes of garbage before its checksum, at the
 * block's end, fails (DarshanLogFuzzTest: 94 MB allocated for a 2.4 KB log with 8 bytes zeroed).
 */
final class RegionDecoder {
    private final Compression compression;
    private final long maxBytes;
    /** Inflated bytes per compressed byte beyond which a region is refused (above zlib's 1032). */
    static final long MAX_RATIO = 1100;
    /** The least any region may inflate to, whatever its compressed size. */
    static final long MIN_CAP = 64 << 10;

    RegionDecoder(Compression compression, long maxBytes) {
        this.compression = compression;
        this.maxBytes = maxBytes;
    }

    /** Result: the bytes inflated, and an error if the region stopped short (the bytes are what came before). */
    record Decoded(byte[] data, int length, DarshanFormatException error) {}

    Decoded decode(byte[] file, Region region, String name) {
        long fileLen = file.length;
        if (region.offset() < 0 || region.offset() > fileLen) {
            return new Decoded(new byte[0], 0, new DarshanFormatException(name, region.offset(),
                    "region starts beyond the end of the file (" + fileLen + " bytes)"));
        }
        long avail = Math.min(region.length(), fileLen - region.offset());
        DarshanFormatException truncated = avail < region.length()
                ? new DarshanFormatException(name, fileLen, "file is truncated: region of " + region.length()
                + " bytes at offset " + region.offset() + " has only " + avail) : null;
        int off = (int) region.offset();
        int len = (int) avail;
        long cap = Math.min(maxBytes, Math.max(MIN_CAP, MAX_RATIO * len));
        Decoded d = switch (compression) {
            case NONE -> new Decoded(Arrays.copyOfRange(file, off, off + len), len, null);
            case ZLIB -> inflate(file, off, len, name, cap);
            case BZIP2 -> bunzip(file, off, len, name, cap);
        };
        // the truncation explains any inflate error that follows from it, so it is the one reported
        if (truncated != null) return new Decoded(d.data(), d.length(), truncated);
        return d;
    }

    /** Inflated bytes collected in chunks and joined once at the end: no repeated doubling copies. */
    private static final class Chunks {
        final java.util.List<byte[]> full = new java.util.ArrayList<>();
        byte[] cur;
        int n;
        long total;

        Chunks(int first) { cur = new byte[first]; }

        void next() {
            full.add(cur);
            total += cur.length;
            cur = new byte[(int) Math.min(8 << 20, Math.max(cur.length, Math.min(total, 8 << 20)))];
            n = 0;
        }

        long size() { return total + n; }

        byte[] join() {
            if (full.isEmpty()) return cur;
            byte[] out = new byte[(int) size()];
            int p = 0;
            for (byte[] c : full) { System.arraycopy(c, 0, out, p, c.length); p += c.length; }
            System.arraycopy(cur, 0, out, p, n);
            return out;
        }
    }

    private Decoded inflate(byte[] file, int off, int len, String name, long maxBytes) {
        Inflater inf = new Inflater();
        Chunks out = new Chunks(Math.max(4096, Math.min(len * 4, 1 << 20)));
        int pos = off;
        int end = off + len;
        try {
            inf.setInput(file, pos, end - pos);
            while (true) {
                if (out.n == out.cur.length) {
                    if (out.size() >= maxBytes) {
                        return new Decoded(out.join(), (int) out.size(), new DarshanFormatException(name, off,
                                "region inflates to more than " + maxBytes + " bytes (" + len + " compressed); refusing to read it"));
                    }
                    out.next();
                }
                int got = inf.inflate(out.cur, out.n, out.cur.length - out.n);
                out.n += got;
                if (inf.finished()) {
                    int used = (end - pos) - inf.getRemaining();
                    pos += used;
                    if (pos >= end) break;
                    inf.reset();
                    inf.setInput(file, pos, end - pos);
                } else if (got == 0 && (inf.needsInput() || inf.needsDictionary())) {
                    return new Decoded(out.join(), (int) out.size(), new DarshanFormatException(name, end,
                            "compressed data ends in the middle of a zlib stream"));
                }
            }
            return new Decoded(out.join(), (int) out.size(), null);
        } catch (DataFormatException e) {
            return new Decoded(out.join(), (int) out.size(), new DarshanFormatException(name, pos,
                    "zlib data does not inflate: " + e.getMessage()));
        } finally {
            inf.end();
        }
    }

    private Decoded bunzip(byte[] file, int off, int len, String name, long maxBytes) {
        byte[] out = new byte[Math.max(1024, Math.min(len * 4, 1 << 20))];
        int n = 0;
        try (InputStream in = new BZip2CompressorInputStream(new ByteArrayInputStream(file, off, len), true)) {
            while (true) {
                if (n == out.length) {
                    if (out.length >= maxBytes) {
                        return new Decoded(out, n, new DarshanFormatException(name, off, "region inflates to more than "
                                + maxBytes + " bytes (" + len + " compressed); refusing to read it"));
                    }
                    out = Arrays.copyOf(out, (int) Math.min(maxBytes, (long) out.length * 2));
                }
                int got = in.read(out, n, out.length - n);
                if (got < 0) break;
                n += got;
            }
            return new Decoded(out, n, null);
        } catch (IOException | RuntimeException e) {
            return new Decoded(out, n, new DarshanFormatException(name, off,
                    "bzip2 data does not decompress: " + e.getMessage()));
        }
    }
}
