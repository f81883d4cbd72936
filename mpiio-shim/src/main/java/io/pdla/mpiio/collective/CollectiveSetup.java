package io.pdla.mpiio.collective;

import io.pdla.intercept.InterceptorChain;
import io.pdla.storage.StorageFile;
import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;

/** Builds a file's two-phase engine at open: hosts of the ranks, the driver's striping, the hints, the aggregators. */
public final class CollectiveSetup {
    /** Stripe size assumed for a store that reports no striping (ROMIO's generic driver knows none either). */
    public static final long UNSTRIPED_STRIPE = 1L << 20;

    private CollectiveSetup() {
    }

    /**
     * Collective over the file's ranks (ranks in other JVMs exchange host names). Throws
     * IllegalArgumentException naming the hint when a collective-buffering hint is invalid.
     */
    public static TwoPhaseEngine engine(RankExchange exchange, Map<String, String> hints, StorageFile storage, InterceptorChain chain) throws IOException {
        long[] hostOfRank = new long[exchange.size()];
        if (!exchange.sharesMemory()) hostOfRank = exchange.allgather(new long[]{hostId()});
        int hosts = (int) Arrays.stream(hostOfRank).distinct().count();
        CollectiveSettings settings = settings(hints, exchange.size(), hosts, storage);
        int[] aggregators = Aggregators.choose(hostOfRank, settings.aggregatorsPerHost(), settings.cbNodes());
        return new TwoPhaseEngine(exchange, settings, aggregators, hostOfRank, chain);
    }

    static CollectiveSettings settings(Map<String, String> hints, int np, int hosts, StorageFile storage) {
        return CollectiveSettings.from(hints, np, hosts, UNSTRIPED_STRIPE, 1);
    }

    private static long hostId() throws IOException {
        try {
            return MPI.Get_processor_name().hashCode();
        } catch (MPIException e) {
            throw new IOException("collective buffering: cannot name this rank's host: " + e.getMessage(), e);
        }
    }
}
