package io.pdla.cli.programs;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import io.pdla.mpiio.MPIIOException;
import mpi.Datatype;
import mpi.MPI;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the generated cases of {@code HintsAndViewsFuzzTest} (one per line of the case file) on every rank and
 * prints one {@code CASE <i> R<rank> <outcome>} line each: {@code OK}, {@code MPIIO <class> <message>},
 * {@code BUILDER <exception> <message>} (a FileType builder refused its arguments, before any MPI call) or
 * {@code OTHER <exception> <message>} (what the property forbids). Arguments: the case file, a directory.
 * <ul>
 *   <li>{@code open <store> <k=v>...}: a collective open with those hints on a POSIX or sim-pfs file, a small
 *       write and read, then close;</li>
 *   <li>{@code setinfo <k=v>...}: the same hints given to setInfo of an open file;</li>
 *   <li>{@code view <disp> <etype bytes> <filetype spec> <datarep>}: setView, then a write and a read of
 *       two etypes through it.</li>
 * </ul>
 */
public final class HintsAndViewsFuzzProgram {
    private static final String SEP = "\u001f";

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        List<String> cases = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
        Path dir = Path.of(args[1]);
        int rank = MPI.COMM_WORLD.Rank();
        for (int i = 0; i < cases.size(); i++) {
            String[] f = cases.get(i).split("\t", -1);
            String outcome;
            try {
                switch (f[0]) {
                    case "open" -> open(dir, f[1], hints(f[2].replace("@/", dir + "/")), i, false);
                    case "setinfo" -> open(dir, f[1], hints(f[2].replace("@/", dir + "/")), i, true);
                    case "view" -> view(dir, Long.parseLong(f[1]), Long.parseLong(f[2]), f[3], f[4], i);
                    default -> throw new IllegalStateException("unknown case " + f[0]);
                }
                outcome = "OK";
            } catch (Builder b) {
                outcome = "BUILDER " + b.getCause().getClass().getName() + " " + oneLine(b.getCause().getMessage());
            } catch (MPIIOException e) {
                outcome = "MPIIO " + e.errorClass() + " " + oneLine(e.getMessage());
            } catch (Throwable t) {
                outcome = "OTHER " + t.getClass().getName() + " " + oneLine(String.valueOf(t.getMessage()));
            }
            System.out.println("CASE " + i + " R" + rank + " " + outcome);
            System.out.flush();
            MPI.COMM_WORLD.Barrier();
        }
        System.out.println("DONE " + rank + " failures=0");
        System.out.flush();
        MPI.Finalize();
    }

    private static String oneLine(String s) {
        return s == null ? "null" : s.replace('\n', ' ').replace('\r', ' ');
    }

    private static Map<String, String> hints(String encoded) {
        Map<String, String> h = new LinkedHashMap<>();
        if (encoded.isEmpty()) return h;
        for (String kv : encoded.split(SEP, -1)) {
            int eq = kv.indexOf('=');
            h.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return h;
    }

    private static String name(Path dir, String store, int i) {
        return store.equals("simpfs") ? "simpfs:///fuzz/case-" + i : dir.resolve("case-" + i).toString();
    }

    private static void open(Path dir, String store, Map<String, String> hints, int i, boolean viaSetInfo) throws Exception {
        Map<String, String> base = new LinkedHashMap<>();
        if (store.equals("simpfs")) base.put("simpfs_root", dir.resolve("simpfs").toString());
        Info info = new Info(base);
        if (!viaSetInfo) hints.forEach(info::set);
        File fh = new File(MPI.COMM_WORLD, name(dir, store, i), MPIIO.MODE_RDWR | MPIIO.MODE_CREATE, info);
        try {
            if (viaSetInfo) fh.setInfo(new Info(hints));
            int rank = MPI.COMM_WORLD.Rank();
            byte[] b = new byte[64];
            fh.writeAtAll(rank * 64L, b, 0, 64, MPI.BYTE);
            fh.readAt(rank * 64L, b, 0, 64, MPI.BYTE);
        } finally {
            fh.close();
        }
    }

    /** Thrown when a FileType builder refuses its arguments (before any MPI call). */
    static final class Builder extends Exception {
        Builder(RuntimeException cause) {
            super(cause);
        }
    }

    /** {@code vector:count:block:stride[:lb:extent]}, {@code indexed:b,b:d,d}, {@code subarray:s,s:sub,sub:st,st:C|F:elem}, {@code bytes:n}, {@code mpj-vector:count:block:stride}. */
    static Object filetype(String spec) throws Builder {
        String[] p = spec.split(":", -1);
        try {
            return switch (p[0]) {
                case "bytes" -> FileType.bytes(Long.parseLong(p[1]));
                case "vector" -> {
                    FileType v = Datatypes.vector(Integer.parseInt(p[1]), Long.parseLong(p[2]), Long.parseLong(p[3]));
                    yield p.length > 4 ? v.resized(Long.parseLong(p[4]), Long.parseLong(p[5])) : v;
                }
                case "indexed" -> Datatypes.indexed(longs(p[1]), longs(p[2]));
                case "subarray" -> Datatypes.subarray(ints(p[1]), ints(p[2]), ints(p[3]), p[4].equals("F") ? Datatypes.Order.FORTRAN : Datatypes.Order.C,
                        Integer.parseInt(p[5]));
                case "mpj-vector" -> Datatype.Vector(Integer.parseInt(p[1]), Integer.parseInt(p[2]), Integer.parseInt(p[3]), MPI.BYTE);
                case "mpj-contiguous" -> Datatype.Contiguous(Integer.parseInt(p[1]), MPI.BYTE);
                default -> throw new IllegalStateException("unknown filetype " + spec);
            };
        } catch (IllegalArgumentException e) {
            throw new Builder(e);
        } catch (RuntimeException e) {
            throw new Builder(e);
        } catch (Exception e) {
            // MPJ's own constructors throw mpi.MPIException
            throw new Builder(new IllegalArgumentException("MPJ refused " + spec + ": " + e, e));
        }
    }

    private static long[] longs(String s) {
        if (s.isEmpty()) return new long[0];
        String[] p = s.split(",");
        long[] out = new long[p.length];
        for (int i = 0; i < p.length; i++) out[i] = Long.parseLong(p[i]);
        return out;
    }

    private static int[] ints(String s) {
        if (s.isEmpty()) return new int[0];
        String[] p = s.split(",");
        int[] out = new int[p.length];
        for (int i = 0; i < p.length; i++) out[i] = Integer.parseInt(p[i]);
        return out;
    }

    private static void view(Path dir, long disp, long etypeBytes, String spec, String datarep, int i) throws Exception {
        Object ft = filetype(spec);
        FileType etype = null;
        if (ft instanceof FileType) {
            try {
                etype = FileType.bytes(etypeBytes);
            } catch (RuntimeException e) {
                throw new Builder(e);
            }
        }
        File fh = new File(MPI.COMM_WORLD, dir.resolve("view-" + i).toString(), MPIIO.MODE_RDWR | MPIIO.MODE_CREATE);
        try {
            if (ft instanceof Datatype d) fh.setView(disp, MPI.BYTE, d, datarep, new Info());
            else fh.setView(disp, etype, (FileType) ft, datarep, new Info());
            long e = ft instanceof Datatype ? 1 : Math.max(1, Math.min(etypeBytes, 1 << 16));
            byte[] b = new byte[(int) (2 * e)];
            fh.writeAt(1, b, 0, b.length, MPI.BYTE);
            fh.readAt(0, b, 0, b.length, MPI.BYTE);
        } finally {
            fh.close();
        }
    }
}
