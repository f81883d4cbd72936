package io.pdla.mpiio.collective;

import io.pdla.intercept.InterceptorChain;
import io.pdla.storage.Layout;
import io.pdla.storage.StorageFile;
import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;

/** Builds a file's two-phase engine at open: hosts of the ranks, the driver's striping, the hints, the aggregators. */
public final class CollectiveSetup {
    private CollectiveSetup() {
    }

    /**
     * Collective over the file's ranks (ranks in other JVMs exchange host names). Throws
     * IllegalArgumentException naming the hint when a collective-buffering hint is invalid.
     */
    public static TwoPhaseEngine engine(RankExchange exchange, Map<String, String> hints, StorageFile storage, InterceptorChain chain) throws IOException {
        long[] hostOfRank = new long[exchange.size()];
        // ranks sharing memory share the host; its id is needed to match cb_config_list's host names
        if (!exchange.sharesMemory()) hostOfRank = exchange.allgather(new long[]{hostId()});
        else Arrays.fill(hostOfRank, hostId());
        int hosts = (int) Arrays.stream(hostOfRank).distinct().count();
        CollectiveSettings settings = settings(hints, exchange.size(), hosts, storage);
        int[] aggregators = Aggregators.choose(hostOfRank, settings);
        return new TwoPhaseEngine(exchange, settings, aggregators, hostOfRank, chain);
    }

    /** Stripe size and server count from the store's own layout of the file, unless the hints say otherwise. */
    static CollectiveSettings settings(Map<String, String> hints, int np, int hosts, StorageFile storage) throws IOException {
        Layout layout = storage.layout();
        return CollectiveSettings.from(hints, np, hosts, Math.max(1, layout.stripeSize()), Math.max(1, layout.serverCount()));
    }

    /**
     * This rank's host, named once: MPJ's Get_processor_name resolves the local host name (InetAddress.getLocalHost,
     * cached by the JDK for 5 s only, then a name-service lookup) and every open asks. Static is per rank (each
     * multicore rank loads pdla itself), and a rank never changes hosts.
     */
    private static volatile Long hostIdOfThisRank;

    private static long hostId() throws IOException {
        Long known = hostIdOfThisRank;
        if (known != null) return known;
        try {
            long id = MPI.Get_processor_name().hashCode();
            hostIdOfThisRank = id;
            return id;
        } catch (MPIException e) {
            throw new IOException("collective buffering: cannot name this rank's host: " + e.getMessage(), e);
        }
    }
}
