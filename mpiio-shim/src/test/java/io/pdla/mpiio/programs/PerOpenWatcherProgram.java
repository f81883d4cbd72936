package io.pdla.mpiio.programs;

import io.pdla.intercept.Interceptors;
import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import static io.pdla.mpiio.programs.Checks.expect;

/**
 * An interceptor that only watches the opens its opened hook finds nothing to do in ({@link PerOpenWatcherProvider}):
 * the everyday calls of such an open go straight and it is told of them afterwards; those of another open of the
 * same chain configuration go through it. Argument: a directory.
 */
public final class PerOpenWatcherProgram {
    private static final int CALLS = 20;

    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Checks c = new Checks();
        int rank = c.rank();
        c.check("an interceptor that only watches this open is told of its everyday calls, not passed them", () -> {
            for (String name : new String[]{"idle-" + rank, "busy-" + rank}) {
                File f = new File(MPI.COMM_SELF, Path.of(args[0], name).toString(), MPIIO.MODE_RDWR | MPIIO.MODE_CREATE,
                        new Info().set(Interceptors.HINT, PerOpenWatcherProvider.NAME));
                byte[] b = new byte[512];
                for (int i = 0; i < CALLS / 2; i++) f.writeAt(i * 512L, b, 0, b.length, MPI.BYTE);
                for (int i = 0; i < CALLS / 2; i++) expect(f.readAt(i * 512L, b, 0, b.length, MPI.BYTE).getBytes() == 512, "read " + i);
                f.close();
            }
            // the handle's first call of a datatype validates it on the general path; every later one may go straight
            expect(count(PerOpenWatcherProvider.OBSERVED, "idle-" + rank) == CALLS - 1 && count(PerOpenWatcherProvider.INTERCEPTED, "idle-" + rank) == 1,
                    "idle open: observed " + count(PerOpenWatcherProvider.OBSERVED, "idle-" + rank) + ", intercepted "
                            + count(PerOpenWatcherProvider.INTERCEPTED, "idle-" + rank) + " of " + CALLS);
            expect(count(PerOpenWatcherProvider.INTERCEPTED, "busy-" + rank) == CALLS && count(PerOpenWatcherProvider.OBSERVED, "busy-" + rank) == 0,
                    "busy open: intercepted " + count(PerOpenWatcherProvider.INTERCEPTED, "busy-" + rank) + ", observed "
                            + count(PerOpenWatcherProvider.OBSERVED, "busy-" + rank) + " of " + CALLS);
        });
        c.done();
        MPI.Finalize();
    }

    private static int count(java.util.Map<String, AtomicInteger> m, String name) {
        AtomicInteger n = m.get(name);
        return n == null ? 0 : n.get();
    }
}
