package io.pdla.mpiio.programs;

import io.pdla.intercept.Interceptors;
import io.pdla.mpiio.File;
import io.pdla.mpiio.Info;
import io.pdla.mpiio.MPIIO;
import mpi.MPI;

import java.nio.file.Path;

import static io.pdla.mpiio.programs.Checks.expect;

/**
 * The interceptors' wish for rank 0's share at open ({@code IoInterceptor.wantsRankZeroAtOpen}) rides on the open's
 * meeting ({@link RankZeroWishProvider}): a read-only open tells every rank whether any rank wanted it, one rank's
 * wish is enough, and an open that creates its file does not gather the wishes (every rank is told "wanted").
 * At least 3 ranks. Argument: a directory.
 */
public final class RankZeroWishProgram {
    public static void main(String[] argv) throws Exception {
        String[] args = MPI.Init(argv);
        Checks c = new Checks();
        Info info = new Info().set(Interceptors.HINT, RankZeroWishProvider.NAME);
        String[] names = {"wanted-by-none", "wanted-by-2", "wanted-by-0"};
        c.check("every rank is told alike whether any rank wanted rank 0's share at open", () -> {
            for (String name : names) {
                String path = Path.of(args[0], name).toString();
                new File(MPI.COMM_WORLD, path, MPIIO.MODE_RDWR | MPIIO.MODE_CREATE, info).close();
                expect(("wanted=true shared=from rank 0").equals(RankZeroWishProvider.SEEN.get(name)),
                        "an open that creates " + name + " gathers no wishes, so it shares: " + RankZeroWishProvider.SEEN.get(name));
                new File(MPI.COMM_WORLD, path, MPIIO.MODE_RDONLY, info).close();
            }
            expect("wanted=false shared=-".equals(RankZeroWishProvider.SEEN.get("wanted-by-none")),
                    "no rank wanted it: nobody meets, " + RankZeroWishProvider.SEEN.get("wanted-by-none"));
            expect("wanted=true shared=from rank 0".equals(RankZeroWishProvider.SEEN.get("wanted-by-2")),
                    "rank 2 alone wanted it: every rank meets and gets rank 0's bytes, " + RankZeroWishProvider.SEEN.get("wanted-by-2"));
            expect("wanted=true shared=from rank 0".equals(RankZeroWishProvider.SEEN.get("wanted-by-0")),
                    "rank 0 alone wanted it: " + RankZeroWishProvider.SEEN.get("wanted-by-0"));
        });
        c.done();
        MPI.Finalize();
    }
}
