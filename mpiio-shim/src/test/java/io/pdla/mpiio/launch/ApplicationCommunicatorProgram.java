package io.pdla.mpiio.launch;

import io.pdla.mpiio.programs.Checks;

/**
 * Runs in an MPJ job whose last args[0] world ranks stand for delegates: builds the application ranks'
 * communicator as RankMain does ({@link RankMain#applicationCommunicator}) and checks it is a working MPJ
 * communicator of exactly the other ranks, and that pdla's agent made MPJ's context agreement linear. Prints {@code PASS <rank> <check>} / {@code FAIL <rank> <check>: <why>} and {@code DONE <rank>
 * failures=<n>}, the lines MpjTestSupport reads.
 */
public final class ApplicationCommunicatorProgram {
    private static Checks checks;
    private static int rank;

    public static void main(String[] argv) throws Exception {
        String[] args = mpi.MPI.Init(argv);
        int delegates = Integer.parseInt(args[0]);
        mpi.Intracomm world = mpi.MPI.COMM_WORLD;
        int size = world.Size();
        rank = world.Rank();
        checks = new Checks();
        int n = size - delegates;
        mpi.Intracomm app = RankMain.applicationCommunicator(world, n);
        check("MPJ's context agreement is pdla's linear one", () -> {
            boolean patched = java.util.Arrays.stream(world.mpjdevComm.getClass().getDeclaredMethods())
                    .anyMatch(m -> m.getName().equals(LinearContextAgreement.INJECTED_NAME));
            expect(patched, world.mpjdevComm.getClass().getName() + " has no " + LinearContextAgreement.INJECTED_NAME + ": the agent did not patch it");
        });
        if (rank < n) {
            check("size and rank", () -> {
                expect(app.Size() == n, "Size() " + app.Size() + ", expected " + n);
                expect(app.Rank() == rank, "Rank() " + app.Rank() + ", expected the world rank " + rank);
            });
            check("allreduce sums the application ranks only", () -> {
                int[] mine = {rank + 1}, sum = new int[1];
                app.Allreduce(mine, 0, sum, 0, 1, mpi.MPI.INT, mpi.MPI.SUM);
                expect(sum[0] == n * (n + 1) / 2, "sum " + sum[0] + ", expected " + n * (n + 1) / 2);
            });
            check("bcast and gather", () -> {
                long[] token = {rank == n - 1 ? 0x5eedL * n : 0};
                app.Bcast(token, 0, 1, mpi.MPI.LONG, n - 1);
                expect(token[0] == 0x5eedL * n, "bcast from the last application rank gave " + token[0]);
                int[] all = new int[n];
                app.Gather(new int[]{rank * 3}, 0, 1, mpi.MPI.INT, all, 0, 1, mpi.MPI.INT, 0);
                if (rank == 0) for (int i = 0; i < n; i++) expect(all[i] == i * 3, "gathered " + all[i] + " from rank " + i);
            });
            check("point-to-point around a ring, in both directions", () -> {
                int right = (rank + 1) % n, left = (rank + n - 1) % n;
                int[] got = new int[1];
                app.Sendrecv(new int[]{rank}, 0, 1, mpi.MPI.INT, right, 7, got, 0, 1, mpi.MPI.INT, left, 7);
                expect(got[0] == left, "from the left got " + got[0] + ", expected " + left);
                mpi.Request r = app.Irecv(got, 0, 1, mpi.MPI.INT, right, 8);
                app.Send(new int[]{rank * 10}, 0, 1, mpi.MPI.INT, left, 8);
                mpi.Status s = r.Wait();
                expect(got[0] == right * 10 && s.source == right, "from the right got " + got[0] + " from " + s.source);
            });
            check("a communicator split from it works", () -> {
                mpi.Intracomm half = app.Split(rank % 2, rank);
                int[] one = {1}, count = new int[1];
                half.Allreduce(one, 0, count, 0, 1, mpi.MPI.INT, mpi.MPI.SUM);
                int expected = rank % 2 == 0 ? (n + 1) / 2 : n / 2;
                expect(count[0] == expected, "half of parity " + rank % 2 + " has " + count[0] + " ranks, expected " + expected);
            });
            check("its traffic and the world's do not mix", () -> {
                // the same tag, source and destination on both communicators: each message lands on its own one
                if (n >= 2 && rank < 2) {
                    int other = 1 - rank;
                    int[] a = new int[1], w = new int[1];
                    mpi.Request ra = app.Irecv(a, 0, 1, mpi.MPI.INT, other, 5);
                    mpi.Request rw = world.Irecv(w, 0, 1, mpi.MPI.INT, other, 5);
                    world.Send(new int[]{1000 + rank}, 0, 1, mpi.MPI.INT, other, 5);
                    app.Send(new int[]{2000 + rank}, 0, 1, mpi.MPI.INT, other, 5);
                    ra.Wait();
                    rw.Wait();
                    expect(a[0] == 2000 + other && w[0] == 1000 + other, "application got " + a[0] + ", world got " + w[0]);
                }
            });
        }
        check("the world still works after", () -> {
            int[] one = {1}, sum = new int[1];
            world.Allreduce(one, 0, sum, 0, 1, mpi.MPI.INT, mpi.MPI.SUM);
            expect(sum[0] == size, "world sum " + sum[0] + ", expected " + size);
            mpi.Intracomm copy = (mpi.Intracomm) world.clone();   // a context made after ours must be another one
            int[] got = new int[1];
            copy.Allreduce(new int[]{2}, 0, got, 0, 1, mpi.MPI.INT, mpi.MPI.SUM);
            expect(got[0] == 2 * size, "a clone of the world made afterwards: sum " + got[0]);
        });
        checks.done();
        mpi.MPI.Finalize();
    }

    private static void check(String name, Checks.Body body) {
        checks.check(name, body);
    }

    private static void expect(boolean condition, String message) {
        if (!condition) throw new AssertionError(message);
    }
}
