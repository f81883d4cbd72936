package io.pdla.bench.collective;

import io.pdla.mpiio.Datatypes;
import io.pdla.mpiio.File;
import io.pdla.mpiio.FileType;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The MPJ program behind {@code pdla bench sim-collective}: IOR's strided pattern (rank r's transfer i at
 * offset (i·np + r)·t) written and read back on sim-pfs through the shim, once with independent calls and
 * once with collective calls (two-phase on), each phase recorded as its own sim-pfs session by the
 * {@code simpfs-timing} interceptor so that the launcher can replay it in virtual time. Run with delegates,
 * only the independent calls, whose storage requests the delegates make and record. Every rank checks
 * what it read. Args: root, transfer bytes, segments, calls|view|tile ({@link SimCollectiveBench.Shape}), then hints
 * as key=value.
 */
public final class SimCollectiveMain {
    private SimCollectiveMain() {
    }

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        String root = args[0];
        int t = Integer.parseInt(args[1]);
        int segments = Integer.parseInt(args[2]);
        SimCollectiveBench.Shape shape = SimCollectiveBench.Shape.valueOf(args[3].toUpperCase(java.util.Locale.ROOT));
        Map<String, String> extra = new LinkedHashMap<>();
        for (int i = 4; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            extra.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        int np = MPI.COMM_WORLD.Size(), rank = MPI.COMM_WORLD.Rank();
        byte[] data = new byte[t * segments];
        for (int i = 0; i < data.length; i++) data[i] = (byte) (i * 7 + rank * 13 + 1);
        // in a job started with delegates (pdla run --delegates), only the independent calls, shipped to the delegates
        boolean delegated = io.pdla.delegate.service.DelegateTransports.current() != null;
        for (boolean collective : delegated ? new boolean[]{false} : new boolean[]{false, true}) {
            String name = "simpfs:///collective-bench/" + (delegated ? "delegates" : collective ? "collective" : "independent") + ".dat";
            run(name, root, collective, delegated, true, shape, t, segments, np, rank, data, extra);
            byte[] back = new byte[data.length];
            run(name, root, collective, delegated, false, shape, t, segments, np, rank, back, extra);
            if (!Arrays.equals(data, back)) {
                System.out.println("FAIL " + rank + " " + (collective ? "collective" : "independent") + " read-back differs");
            }
        }
        System.out.println("DONE " + rank);
        MPI.Finalize();
    }

    private static void run(String name, String root, boolean collective, boolean delegated, boolean write, SimCollectiveBench.Shape shape, int t, int segments,
                            int np, int rank, byte[] buf, Map<String, String> extra) throws Exception {
        Info info = new Info();
        extra.forEach(info::set);
        info.set("simpfs_root", root);
        info.set("simpfs_session", delegated ? SimCollectiveBench.delegateSession(write) : SimCollectiveBench.session(collective, write));
        info.set("pdla_interceptors", "simpfs-timing");
        info.set("romio_cb_write", collective ? extra.getOrDefault("romio_cb_write", "enable") : "disable");
        info.set("romio_cb_read", collective ? extra.getOrDefault("romio_cb_read", "enable") : "disable");
        File f = new File(MPI.COMM_WORLD, name, write ? MPIIO.MODE_CREATE | MPIIO.MODE_WRONLY : MPIIO.MODE_RDONLY, info);
        if (shape != SimCollectiveBench.Shape.CALLS) {
            if (shape == SimCollectiveBench.Shape.VIEW) {
                f.setView((long) rank * t, FileType.bytes(1), Datatypes.vector(1, t, t).resized(0, (long) t * np), "native", new Info());
            } else {
                int across = SimCollectiveBench.tilesAcross(np), tx = rank % across, ty = rank / across;
                FileType tile = Datatypes.subarray(new int[]{(np / across) * segments, across * t}, new int[]{segments, t},
                        new int[]{ty * segments, tx * t}, Datatypes.Order.C, 1);
                f.setView(0, FileType.bytes(1), tile, "native", new Info());
            }
            if (write) {
                if (collective) f.writeAll(buf, 0, buf.length, MPI.BYTE); else f.write(buf, 0, buf.length, MPI.BYTE);
            } else {
                if (collective) f.readAll(buf, 0, buf.length, MPI.BYTE); else f.read(buf, 0, buf.length, MPI.BYTE);
            }
        } else {
            for (int i = 0; i < segments; i++) {
                long off = ((long) i * np + rank) * t;
                if (write) {
                    if (collective) f.writeAtAll(off, buf, i * t, t, MPI.BYTE); else f.writeAt(off, buf, i * t, t, MPI.BYTE);
                } else {
                    if (collective) f.readAtAll(off, buf, i * t, t, MPI.BYTE); else f.readAt(off, buf, i * t, t, MPI.BYTE);
                }
            }
        }
        f.close();
    }
}
